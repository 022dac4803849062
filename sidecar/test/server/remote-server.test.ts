// The server started for remote use: HTTPS with a real certificate, or behind a TLS proxy; configured
// Hosts and Origins; CORS for another origin's page. Requests go to 127.0.0.1 with the Host a client
// of `cairn.test` would send.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Capabilities } from '../../src/protocol';
import { type RunningServer, startServer } from '../../src/server/start-server';
import { tempDir } from '../support/harness';
import { errorCode, json, type RawResponse, rawRequest } from './raw-http';
import { makeTestCertificate, type TestCertificate } from './test-certificate';

const TOKEN = 'remote-test-token-0123456789-abcdefghijklmnop';
const DESK = 'https://desk.cairn.test:8443';

function corsHeaders(res: RawResponse): string[] {
  return Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));
}

async function start(extra: Partial<Parameters<typeof startServer>[0]>) {
  const dataDir = tempDir('remote-data');
  const server = await startServer({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    env: { ...process.env, CAIRN_TOKEN: TOKEN },
    staticDir: null,
    allowedHosts: ['cairn.test'],
    allowedOrigins: [DESK],
    ...extra,
  });
  return {
    server,
    async close() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a WebSocket and authenticates; resolves with the first message, or the refused status. */
function wsAuthenticate(url: string, options: WebSocket.ClientOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate', token: TOKEN })));
    socket.on('message', (raw) => {
      resolve((JSON.parse(raw.toString()) as { type: string }).type);
      socket.close();
    });
    socket.on('unexpected-response', (_req, res) => {
      resolve(`refused ${res.statusCode}`);
      socket.terminate();
    });
    socket.on('error', reject);
  });
}

describe('cairn serve with its own TLS', () => {
  let cert: TestCertificate;
  let running: { server: RunningServer; close(): Promise<void> };
  let port: number;
  const host = () => `cairn.test:${port}`;
  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    rawRequest({ port, method, path, headers: { host: host(), ...headers }, tls: { ca: cert.cert } });

  beforeAll(async () => {
    cert = makeTestCertificate({ names: ['cairn.test'], ips: ['127.0.0.1'] });
    running = await start({ tls: { cert: cert.cert, key: cert.key } });
    port = running.server.port;
  });
  afterAll(async () => {
    await running?.close();
    cert?.remove();
  });

  it('serves HTTPS, reports remote mode, and prints an https URL with the token in the fragment', async () => {
    expect(running.server.url).toBe(`https://127.0.0.1:${port}`);
    expect(running.server.browserUrl).toBe(`https://127.0.0.1:${port}/#token=${TOKEN}`);
    const caps = await send('GET', '/api/capabilities', { authorization: `Bearer ${TOKEN}` });
    expect(caps.status).toBe(200);
    expect(json<Capabilities>(caps).mode).toBe('remote');
    expect(caps.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('accepts an allowed Host and loopback ones, refuses any other with a hint', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await send('GET', '/api/sessions', auth)).status).toBe(200);
    expect((await send('GET', '/api/sessions', { ...auth, host: `127.0.0.1:${port}` })).status).toBe(200);
    const foreign = await rawRequest({
      port,
      method: 'GET',
      path: '/api/health',
      headers: { host: `other.test:${port}` },
      tls: { ca: cert.cert, servername: 'cairn.test' },
    });
    expect(foreign.status).toBe(403);
    expect(json<{ error: { message: string } }>(foreign).error.message).toContain('--allowed-hosts');
  });

  it("takes the page's own https origin and a configured one, and refuses the page's http origin", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const origin of [`https://${host()}`, DESK, 'app://cairn']) {
      const res = await send('GET', '/api/sessions', { ...auth, origin });
      expect(res.status, origin).toBe(200);
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
    }
    for (const origin of [`http://${host()}`, 'https://evil.cairn.test:8443', 'https://desk.cairn.test']) {
      const res = await send('GET', '/api/sessions', { ...auth, origin });
      expect(res.status, origin).toBe(403);
      expect(errorCode(res), origin).toBe('forbidden');
      expect(corsHeaders(res), origin).toEqual([]);
    }
  });

  it('answers a preflight from the configured origin without a token, and none from a foreign one', async () => {
    const preflight = (origin: string) =>
      send('OPTIONS', '/api/sessions', {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      });
    const allowed = await preflight(DESK);
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(DESK);
    expect(allowed.headers['access-control-allow-headers']).toMatch(/authorization/);
    const foreign = await preflight('https://evil.cairn.test:8443');
    expect(foreign.status).toBe(403);
    expect(corsHeaders(foreign)).toEqual([]);
  });

  it('answers nothing to plain http on its port', async () => {
    const attempt = rawRequest({ port, method: 'GET', path: '/api/health', headers: { host: host() } });
    await expect(attempt).rejects.toThrow();
  });

  it('opens a WebSocket over wss from the configured origin, and refuses a foreign one', async () => {
    const url = `wss://127.0.0.1:${port}/api/ws`;
    const tls = { ca: cert.cert, servername: 'cairn.test' };
    expect(await wsAuthenticate(url, { ...tls, headers: { host: host(), origin: DESK } })).toBe(
      'authenticated',
    );
    expect(
      await wsAuthenticate(url, {
        ...tls,
        headers: { host: host(), origin: 'https://evil.cairn.test:8443' },
      }),
    ).toBe('refused 403');
  });
});

describe('cairn serve behind a TLS proxy', () => {
  let running: { server: RunningServer; close(): Promise<void> };
  let port: number;
  const send = (path: string, headers: Record<string, string>) =>
    rawRequest({ port, method: 'GET', path, headers: { authorization: `Bearer ${TOKEN}`, ...headers } });

  beforeAll(async () => {
    running = await start({ behindTlsProxy: true });
    port = running.server.port;
  });
  afterAll(async () => running?.close());

  it('serves plain HTTP to the proxy, in remote mode, and points browsers at the https name', async () => {
    expect(running.server.url).toBe(`http://127.0.0.1:${port}`);
    expect(running.server.browserUrl).toBe(`https://cairn.test/#token=${TOKEN}`);
    const caps = await send('/api/capabilities', { host: 'cairn.test' });
    expect(json<Capabilities>(caps).mode).toBe('remote');
    // HSTS is the proxy's to send: only it knows what else lives under the name.
    expect(caps.headers['strict-transport-security']).toBeUndefined();
  });

  it("treats the page's origin as https, except for someone on the server going around the proxy", async () => {
    expect((await send('/api/sessions', { host: 'cairn.test', origin: 'https://cairn.test' })).status).toBe(
      200,
    );
    expect((await send('/api/sessions', { host: 'cairn.test', origin: 'http://cairn.test' })).status).toBe(
      403,
    );
    const local = `127.0.0.1:${port}`;
    expect((await send('/api/sessions', { host: local, origin: `http://${local}` })).status).toBe(200);
  });

  it('refuses a request the proxy says came over plain http', async () => {
    const res = await send('/api/health', { host: 'cairn.test', 'x-forwarded-proto': 'http' });
    expect(res.status).toBe(403);
    expect(json<{ error: { message: string } }>(res).error.message).toContain('https://');
    expect((await send('/api/health', { host: 'cairn.test', 'x-forwarded-proto': 'https' })).status).toBe(
      200,
    );
    // Also from a proxy that rewrites Host to the loopback address it forwards to.
    const viaLoopback = await send('/api/health', { host: `127.0.0.1:${port}`, 'x-forwarded-proto': 'http' });
    expect(viaLoopback.status).toBe(403);
  });
});
