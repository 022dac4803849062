// A reverse proxy on loopback in front of a test sidecar, standing in for a real one: it forwards HTTP,
// and WebSocket upgrades are refused with 502 (a proxy not configured for them) or tunnelled, with a
// way to cut the tunnels as a dropped network would and to hold the next upgrade.
import http from 'node:http';
import net, { type Socket } from 'node:net';
import { type LoopbackServer, listenOnLoopback } from './loopback-server';

export interface ReverseProxy extends LoopbackServer {
  /** Resolves once the server has sent `text` down a tunnel (its frames are not masked: plain JSON). */
  serverSent(text: string): Promise<void>;
  /** Destroys every open tunnel, both ends. */
  cutTunnels(): void;
  /** The next upgrade waits, unanswered as on a slow network, until `until` settles. */
  holdUpgrades(until: Promise<unknown>): void;
}

export async function reverseProxy(target: string, upgrades: 'refuse' | 'tunnel'): Promise<ReverseProxy> {
  const tunnels = new Set<Socket>();
  let sent = '';
  const watchers = new Set<() => void>();
  let held: Promise<unknown> | null = null;
  const tunnel = (req: http.IncomingMessage, socket: Socket) => {
    const { port } = new URL(target);
    const upstream = net.connect(Number(port), '127.0.0.1', () => {
      const head = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        head.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${head.join('\r\n')}\r\n\r\n`);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('data', (chunk: Buffer) => {
      sent += chunk.toString('latin1');
      for (const watcher of [...watchers]) watcher();
    });
    for (const end of [socket, upstream]) {
      tunnels.add(end);
      end.on('error', () => undefined);
      end.on('close', () => {
        tunnels.delete(end);
        socket.destroy();
        upstream.destroy();
      });
    }
  };
  const server = await listenOnLoopback(
    (req, res) => {
      const upstream = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    },
    {
      onUpgrade(req, socket) {
        if (upgrades === 'refuse') {
          socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        if (held) {
          const wait = held;
          held = null;
          const go = () => tunnel(req, socket);
          wait.then(go, go);
          return;
        }
        tunnel(req, socket);
      },
    },
  );
  return {
    ...server,
    serverSent(text) {
      return new Promise((resolve) => {
        const check = () => {
          if (!sent.includes(text)) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      });
    },
    cutTunnels() {
      for (const end of tunnels) end.destroy();
    },
    holdUpgrades(until) {
      held = until;
    },
  };
}
