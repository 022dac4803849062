// A loopback TCP relay in front of a server, standing for the network between the browser and it: the
// test can cut it (every connection through it drops, new ones are refused) and restore it. Chromium's
// offline emulation cannot stand in here: it holds back frames, and the close, of a socket that is
// already open, so a page may not see the drop until it is back online.
import net from 'node:net';
import { listenOnFreePort } from '../../../sidecar/test/support/loopback-server';

export interface TcpRelay {
  /** http://127.0.0.1:PORT, reaching the server behind it. */
  url: string;
  /** Drops every connection through the relay and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const open = new Set<net.Socket>();
  let isCut = false;
  const server = net.createServer((client) => {
    if (isCut) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    const pair = [client, upstream];
    for (const socket of pair) {
      open.add(socket);
      // Either end going away takes the other with it, as a broken link would.
      socket.on('close', () => {
        open.delete(socket);
        for (const other of pair) other.destroy();
      });
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await listenOnFreePort(server);
  const dropAll = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      isCut = true;
      dropAll();
    },
    restore() {
      isCut = false;
    },
    close() {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
