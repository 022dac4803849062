import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiError, CairnClient, EventStream } from '../../sidecar/src/client';
import type { BackendInfo, CairnEvent } from '../../sidecar/src/protocol';
import { type RunningServer, startServer } from '../../sidecar/src/server/start-server';
import { tempDir, testEnv } from '../../sidecar/test/support/harness';
import { type ModelServer, startModelServer } from '../../sidecar/test/support/model-server';
import { BackendReconnector } from '../src/state/backend-reconnector';
import { fakeBridge } from '../test/support/fake-bridge';

// What the desktop host does when its sidecar dies: a new sidecar on the same data, on a new port with
// a new token. The renderer's stream, reconnector and client against those two real sidecars; only the
// bridge is a stand-in, since Electron cannot run here.
const BrowserLikeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((r) => setTimeout(r, 10));
}

let model: ModelServer | null = null;
let dataDir: string | null = null;
const servers: RunningServer[] = [];
const streams: EventStream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  for (const server of servers.splice(0)) await server.stop();
  await model?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function sidecar(token: string): Promise<{ server: RunningServer; info: BackendInfo }> {
  const env = testEnv(model!, { CAIRN_TOKEN: token });
  const server = await startServer({ dataDir: dataDir!, host: '127.0.0.1', port: 0, env, staticDir: null });
  servers.push(server);
  return { server, info: { url: server.url, token, mode: 'local', source: 'local' } };
}

describe('a restarted sidecar', () => {
  it('is found through the bridge after the old one stops, and serves the same session', async () => {
    model = await startModelServer();
    dataDir = tempDir('restart');
    const a = await sidecar('token-A-0123456789abcdef');
    const clientA = new CairnClient(a.info);
    const session = await clientA.createSession({ title: 'kept across restarts' });

    const fake = fakeBridge(a.info);
    let restarted: (info: BackendInfo) => void = () => undefined;
    const changed: BackendInfo[] = [];
    const stream = new EventStream(a.info, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
    streams.push(stream);
    const reconnector = new BackendReconnector({
      bridge: fake.bridge,
      current: a.info,
      onChanged: (next) => changed.push(next),
      onLost: (message) => {
        throw new Error(`unexpected: ${message}`);
      },
      retryDelayMs: 10,
    });
    stream.onState((state) => reconnector.streamStateChanged(state));
    await until(() => stream.getState() === 'open');

    // The host waits for its new sidecar before it answers.
    fake.answer(new Promise<BackendInfo>((resolve) => (restarted = resolve)));
    await a.server.stop();
    servers.splice(servers.indexOf(a.server), 1);
    await until(() => stream.getState() === 'down');
    expect(fake.bridge.getBackend).toHaveBeenCalledTimes(1);

    const b = await sidecar('token-B-fedcba9876543210');
    expect(b.info.url).not.toBe(a.info.url);
    restarted(b.info);
    await until(() => changed.length > 0);
    expect(changed).toEqual([b.info]);
    reconnector.dispose();

    // The new backend works with the new token, has the session, and streams its events.
    const clientB = new CairnClient(b.info);
    expect((await clientB.getSession(session.id)).title).toBe('kept across restarts');
    const stale = await new CairnClient({ url: b.info.url, token: a.info.token })
      .getSession(session.id)
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect((stale as ApiError).status).toBe(401);

    const streamB = new EventStream(b.info, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
    streams.push(streamB);
    const seen: CairnEvent[] = [];
    streamB.subscribe(session.id, 0, (event) => seen.push(event));
    await until(() => streamB.getState() === 'open');
    model.enqueue({ content: [{ type: 'text', text: 'answered by B' }] });
    await clientB.startTurn(session.id, 'hello B', 'req-b-1');
    await until(() => seen.some((e) => e.type === 'turn.completed'));
    expect(seen.some((e) => e.type === 'turn.started')).toBe(true);
  });
});
