import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventStream } from '../../../sidecar/src/client';
import { fakeSocketServer } from '../support/fake-socket';

const BACKEND = { url: 'http://127.0.0.1:41001', token: 'stream-token' };
const WS_URL = 'ws://127.0.0.1:41001/api/ws';

let stream: EventStream | null = null;
afterEach(() => {
  stream?.close();
  stream = null;
});

/** A stream whose retries wait a minute, so only "Reconnect now" can make the next attempt soon. */
async function droppedStream() {
  const tokens = new Map([[WS_URL, BACKEND.token]]);
  const server = fakeSocketServer(tokens);
  stream = new EventStream(BACKEND, { WebSocketImpl: server.WebSocket, initialDelayMs: 60_000 });
  await vi.waitFor(() => expect(stream?.getState()).toBe('open'));
  // The server goes away: the immediate retry fails too, and the next one is a minute off.
  tokens.delete(WS_URL);
  server.openTo(WS_URL)[0]!.drop(1006);
  await vi.waitFor(() => expect(server.sockets).toHaveLength(2));
  await vi.waitFor(() => expect(server.sockets[1]!.readyState).toBe(3));
  return { server, tokens, stream };
}

describe('EventStream.reconnectNow', () => {
  it('ends the wait between attempts: the next one starts at once', async () => {
    const { server, tokens, stream } = await droppedStream();
    expect(stream.getState()).toBe('down');
    tokens.set(WS_URL, BACKEND.token);
    stream.reconnectNow();
    expect(server.sockets).toHaveLength(3);
    await vi.waitFor(() => expect(stream.getState()).toBe('open'));
    expect(server.sockets[2]!.sent[0]).toEqual({ type: 'authenticate', token: BACKEND.token });
  });

  it('replaces an open socket at once, and does nothing after close()', async () => {
    const tokens = new Map([[WS_URL, BACKEND.token]]);
    const server = fakeSocketServer(tokens);
    stream = new EventStream(BACKEND, { WebSocketImpl: server.WebSocket, initialDelayMs: 60_000 });
    await vi.waitFor(() => expect(stream?.getState()).toBe('open'));
    stream.reconnectNow();
    await vi.waitFor(() => expect(server.openTo(WS_URL)).toHaveLength(1));
    await vi.waitFor(() => expect(stream?.getState()).toBe('open'));
    expect(server.sockets).toHaveLength(2);

    stream.close();
    stream.reconnectNow();
    expect(server.sockets).toHaveLength(2);
  });
});
