/**
 * A browser-like WebSocket for happy-dom tests, with a tiny Cairn server behind it: it opens on the
 * next tick and answers `authenticate` with `authenticated` when the token is the one `tokens` holds for
 * the socket's URL, else closes with 4401. Tests stub the global with it and drop sockets at will.
 */
export function fakeSocketServer(tokens: Map<string, string>) {
  const sockets: FakeSocket[] = [];

  class FakeSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    readyState = FakeSocket.CONNECTING;
    readonly sent: unknown[] = [];
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    onclose: ((event: { code: number; reason: string }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;

    constructor(readonly url: string) {
      sockets.push(this);
      setTimeout(() => {
        if (this.readyState !== FakeSocket.CONNECTING) return;
        // Nothing listens at an address the server map does not know: the handshake fails.
        if (!tokens.has(this.url)) return this.drop(1006);
        this.readyState = FakeSocket.OPEN;
        this.onopen?.({});
      }, 0);
    }

    send(data: string): void {
      const message = JSON.parse(data) as { type: string; token?: string };
      this.sent.push(message);
      if (message.type !== 'authenticate') return;
      if (message.token === tokens.get(this.url)) this.receive({ type: 'authenticated' });
      else this.drop(4401, 'authentication failed');
    }

    close(): void {
      if (this.readyState === FakeSocket.CLOSED) return;
      this.readyState = FakeSocket.CLOSED;
      setTimeout(() => this.onclose?.({ code: 1000, reason: '' }), 0);
    }

    /** A message from the server. */
    receive(message: unknown): void {
      this.onmessage?.({ data: JSON.stringify(message) });
    }

    /** The server side goes away (1006: the process died; 4401: token refused). */
    drop(code: number, reason = ''): void {
      if (this.readyState === FakeSocket.CLOSED) return;
      this.readyState = FakeSocket.CLOSED;
      this.onclose?.({ code, reason });
    }
  }

  return {
    WebSocket: FakeSocket as unknown as typeof WebSocket,
    sockets,
    /** Sockets still open to `url`. */
    openTo(url: string) {
      return sockets.filter((s) => s.url === url && s.readyState === FakeSocket.OPEN);
    },
  };
}
