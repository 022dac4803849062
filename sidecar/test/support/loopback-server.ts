// A throwaway HTTP(S) server on 127.0.0.1 for tests that need something real to talk to: a stand-in
// backend, a redirecting proxy, a static site. It records what reached it.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  authorization: string | undefined;
}

export interface LoopbackServer {
  /** http://127.0.0.1:PORT, or https:// with `tls`. */
  url: string;
  port: number;
  /** Every request, in the order it arrived. */
  requests: ReceivedRequest[];
  /** Cuts open connections (keep-alive ones too), then stops listening. */
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** Serves HTTPS with this certificate. */
  tls?: { cert: Buffer | string; key: Buffer | string };
  /** Handles upgrade requests (WebSocket handshakes); without it they are left unanswered. */
  onUpgrade?(req: http.IncomingMessage, socket: Socket): void;
}

/** Has `server` listen on 127.0.0.1 at a free port; resolves with the port once it accepts connections. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** A port on 127.0.0.1 that was free a moment ago: nothing listens on it now (until something takes it). */
export async function freeLoopbackPort(): Promise<number> {
  const probe = http.createServer();
  const port = await listenOnFreePort(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** An HTTP(S) server on 127.0.0.1 at a free port, resolved once it accepts connections. */
export async function listenOnLoopback(
  handler: http.RequestListener,
  options: LoopbackOptions = {},
): Promise<LoopbackServer> {
  const requests: ReceivedRequest[] = [];
  const listener: http.RequestListener = (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    handler(req, res);
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, listener)
    : http.createServer(listener);
  const { onUpgrade } = options;
  if (onUpgrade) server.on('upgrade', (req: http.IncomingMessage, socket: Socket) => onUpgrade(req, socket));
  const port = await listenOnFreePort(server);
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
