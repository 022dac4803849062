import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness } from '../../sidecar/test/support/harness';
import { type LoopbackServer, listenOnLoopback } from '../../sidecar/test/support/loopback-server';
import { reverseProxy } from '../../sidecar/test/support/reverse-proxy';
import { type CheckStep, checkBackend } from '../src/api/backend-check';

// Test backend's checks against a real sidecar, and against the real things that go wrong in front of
// one: nothing listening, a web server that is not Cairn, a proxy that does not pass WebSockets, a redirect.
const BrowserLikeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

/** A reverse proxy to `target` that forwards HTTP but answers WebSocket upgrades with 502. */
const proxyWithoutWebSockets = (target: string) => reverseProxy(target, 'refuse');

const byId = (steps: CheckStep[]) => Object.fromEntries(steps.map((s) => [s.id, s]));
const check = (url: string, token: string) =>
  checkBackend({ url, token }, { WebSocketImpl: BrowserLikeWebSocket, socketTimeoutMs: 10_000 });

let h: Harness | null = null;
const extra: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of extra.splice(0)) await server.close();
  await h?.close();
  h = null;
});

describe('checkBackend against real servers', () => {
  it('passes every step on a real sidecar, with its version, and reports progress as it goes', async () => {
    h = await startHarness();
    const version = (await h.api<{ version: string }>('GET', '/api/health')).body.version;
    const progress: string[] = [];
    const steps = await checkBackend(
      { url: h.server.url, token: h.server.token },
      {
        WebSocketImpl: BrowserLikeWebSocket,
        onProgress: (all) => progress.push(all.map((s) => s.status[0]).join('')),
      },
    );
    expect(steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const s = byId(steps);
    expect(s.health).toMatchObject({ version });
    expect(s.capabilities).toMatchObject({ version, mode: 'local' });
    expect(s.about).toMatchObject({
      version,
      runtime: { platform: process.platform, node: process.versions.node },
    });
    for (const step of steps) expect(step.status === 'ok' && step.latencyMs).toBeGreaterThanOrEqual(0);
    // p = pending, r = running, o = ok: one step at a time, in order.
    expect(progress).toEqual(['rppp', 'oppp', 'orpp', 'oopp', 'oorp', 'ooop', 'ooor', 'oooo']);
  });

  it('says the token is rejected, over HTTP and on the socket, while health still answers', async () => {
    h = await startHarness();
    const s = byId(await check(h.server.url, 'not-the-token'));
    expect(s.health?.status).toBe('ok');
    for (const id of ['capabilities', 'about', 'websocket'] as const) {
      expect(s[id], id).toMatchObject({ status: 'failed', failure: 'token_rejected' });
    }
  });

  it('says the server is unreachable when nothing listens, and skips the rest', async () => {
    const gone = await listenOnLoopback(() => undefined);
    await gone.close();
    const steps = await check(gone.url, 'token');
    expect(steps[0]).toMatchObject({ status: 'failed', failure: 'unreachable' });
    expect(steps.slice(1).map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped']);
  });

  it('says a web server that is not Cairn is not Cairn', async () => {
    const web = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Welcome to nginx!</title>');
    });
    extra.push(web);
    const steps = await check(web.url, 'token');
    expect(steps[0]).toMatchObject({ status: 'failed', failure: 'not_cairn' });
  });

  it('says the WebSocket is refused behind a proxy that does not forward upgrades', async () => {
    h = await startHarness();
    const proxy = await proxyWithoutWebSockets(h.server.url);
    extra.push(proxy);
    const s = byId(await check(proxy.url, h.server.token));
    expect([s.health?.status, s.capabilities?.status, s.about?.status]).toEqual(['ok', 'ok', 'ok']);
    expect(s.websocket).toMatchObject({ status: 'failed', failure: 'websocket_refused' });
  });

  it('says the server redirects, and follows nothing', async () => {
    h = await startHarness();
    const target = h.server.url;
    const redirector = await listenOnLoopback((req, res) => {
      res.writeHead(302, { location: `${target}${req.url}` });
      res.end();
    });
    extra.push(redirector);
    const steps = await check(redirector.url, h.server.token);
    expect(steps[0]).toMatchObject({ status: 'failed', failure: 'redirect' });
  });
});
