// Which requests the guard lets through: every spelling of an /api/ path needs the token first (so an
// unknown one does not reveal that it is unknown), even where the UI's static wildcard would match it; and
// the Host header is one host with an optional port, nothing else.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  isApiPath,
  isHostAllowed,
  isLoopbackHostHeader,
  isOriginAllowed,
  parseHost,
  requestHost,
} from '../../src/server/request-policy';
import { type RunningServer, startServer } from '../../src/server/start-server';
import { tempDir } from '../support/harness';
import { errorCode, type RawResponse, rawRequest } from './raw-http';

const TOKEN = 'guard-test-token-0123456789-abcdefghij';
const POLICY = { allowedHosts: ['Cairn.test'], allowedOrigins: [] };
const PAGE = '<!doctype html><title>Cairn test page</title>';

describe('request policy: the Host header', () => {
  it('parses one host and an optional port, and nothing else', () => {
    expect(parseHost('127.0.0.1:8765')).toEqual({ name: '127.0.0.1', port: '8765' });
    expect(parseHost('LocalHost')).toEqual({ name: 'localhost', port: null });
    expect(parseHost('[::1]:80')).toEqual({ name: '[::1]', port: '80' });
    expect(parseHost('[::FFFF:127.0.0.1]')).toEqual({ name: '[::ffff:127.0.0.1]', port: null });
    for (const bad of [
      '[::1]evil',
      '[::1].evil:8765',
      '[::1]:8765.evil',
      '127.0.0.1:8765, evil.example',
      '127.0.0.1 evil.example',
      '127.0.0.1:8765:8765',
      '127.0.0.1:',
      '127.0.0.1:123456',
      '127.0.0.1:65536',
      '127.0.0.1:+80',
      'localhost:http',
      'user@127.0.0.1',
      '127.0.0.1/x',
      '127.0.0.1?x',
      '::1',
      '::1:8765',
      '[::1',
      '[not-ipv6]',
      '[fe80::1%25eth0]',
      '[v1.x]',
      ':8765',
      '',
    ]) {
      expect(parseHost(bad), bad).toBeNull();
    }
  });

  it('accepts loopback names and the allowed hosts in any case, and refuses every malformed Host', () => {
    for (const host of [
      'localhost',
      'LOCALHOST:1',
      '127.0.0.1:8765',
      '[::1]',
      '[::1]:8765',
      'cairn.TEST:443',
    ]) {
      expect(isHostAllowed(host, POLICY), host).toBe(true);
    }
    for (const host of [
      undefined,
      'evil.example',
      '[::1]evil',
      '[::1].evil:8765',
      '127.0.0.1:8765, evil.example',
      'cairn.test, evil.example',
      'cairn.test.evil.example',
      '::1',
      '::1:8765',
    ]) {
      expect(isHostAllowed(host, POLICY), String(host)).toBe(false);
    }
  });

  it('counts as loopback only a well-formed loopback Host', () => {
    for (const host of ['localhost:8765', '127.0.0.1', '[::1]:8765', 'LocalHost']) {
      expect(isLoopbackHostHeader(host), host).toBe(true);
    }
    for (const host of [
      undefined,
      '[::1]evil',
      '[::1].evil:8765',
      '127.0.0.1:8765, evil.example',
      'cairn.test',
    ]) {
      expect(isLoopbackHostHeader(host), String(host)).toBe(false);
    }
  });

  it('takes the one Host header, which an absolute-form target must repeat', () => {
    expect(requestHost(['Host', '127.0.0.1:1'], '/api/x')).toBe('127.0.0.1:1');
    expect(requestHost(['host', 'a', 'Accept', '*/*'], '*')).toBe('a');
    expect(requestHost(['Host', '127.0.0.1:1'], 'http://127.0.0.1:1/api/x')).toBe('127.0.0.1:1');
    expect(requestHost(['Host', 'LOCALHOST:1'], 'HTTP://localhost:1/')).toBe('LOCALHOST:1');
    expect(requestHost([], '/')).toBeUndefined();
    expect(requestHost(['Host', '127.0.0.1', 'HOST', 'evil.example'], '/')).toBeUndefined();
    expect(requestHost(['Host', '127.0.0.1:1'], 'http://evil.example/api/health')).toBeUndefined();
    expect(requestHost(['Host', '127.0.0.1:1'], 'http://127.0.0.1:1@evil.example/')).toBeUndefined();
  });
});

describe('request policy: the Origin against the Host', () => {
  const allowed = (origin: string, host: string | undefined) =>
    isOriginAllowed(origin, host, ['http'], POLICY);

  it("accepts the page's own origin whatever the case of its Host", () => {
    expect(allowed('http://127.0.0.1:8765', '127.0.0.1:8765')).toBe(true);
    expect(allowed('http://localhost:8765', 'LOCALHOST:8765')).toBe(true);
    expect(allowed('http://[::1]:8765', '[::1]:8765')).toBe(true);
    expect(allowed('http://cairn.test', 'cairn.test')).toBe(true);
  });

  it('refuses an origin that only looks like the Host, or any when the Host is malformed', () => {
    expect(allowed('http://[::1]evil', '[::1]evil')).toBe(false);
    expect(allowed('http://127.0.0.1:8765, evil.example', '127.0.0.1:8765, evil.example')).toBe(false);
    expect(allowed('http://127.0.0.1:8765/', '127.0.0.1:8765')).toBe(false);
    expect(allowed('http://127.0.0.1', '127.0.0.1:8765')).toBe(false);
    expect(allowed('https://127.0.0.1:8765', '127.0.0.1:8765')).toBe(false);
    expect(allowed('http://127.0.0.1:8765', undefined)).toBe(false);
  });
});

describe('request policy: what counts as an API path', () => {
  it('sees /api/ however the path is spelled', () => {
    for (const target of [
      '/api/x',
      '/api',
      '/api/',
      '/API/x',
      '/%61pi/x',
      '/%41%50%49/x',
      '//api/x',
      '/./api/x',
      '/api/../api/x',
      '/api/../x',
      '/x/../api/y',
      '/%2e%2e/api/x',
      '/api%2fx',
      '/api?x',
      '/api/x#frag',
      'http://127.0.0.1:8765/api/x',
      'HTTPS://host/%61pi',
      '/api/%ZZ',
    ]) {
      expect(isApiPath(target), target).toBe(true);
    }
  });

  it('leaves the UI’s paths alone', () => {
    for (const target of [
      '/',
      '/index.html',
      '/assets/app.js',
      '/apix',
      '/api.js',
      '/api;x',
      '/x/api',
      '/?api/x',
      '/#/api/x',
      '/%2561pi/x',
      'http://host/',
    ]) {
      expect(isApiPath(target), target).toBe(false);
    }
  });
});

/** One request written byte for byte, for what node:http cannot send (two Host headers). */
function writtenRequest(port: number, head: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`${head}Connection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [statusLine = '', ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n');
      const text = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers: {}, text });
    });
  });
}

/** The HTTP status of a refused WebSocket upgrade, or 101 for one accepted (then closed at once). */
function upgradeStatus(port: number, target: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${target}`, { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('upgrade', () => {
      resolve(101);
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
  });
}

describe('one server with the UI built', () => {
  let server: RunningServer;
  let dataDir: string;
  let staticDir: string;
  let port: number;

  const send = (method: string, target: string, headers: Record<string, string> = {}) =>
    rawRequest({ port, method, path: target, headers: { host: `127.0.0.1:${port}`, ...headers } });
  const auth = () => ({ authorization: `Bearer ${TOKEN}` });

  beforeAll(async () => {
    dataDir = tempDir('guard-data');
    staticDir = tempDir('guard-static');
    fs.writeFileSync(path.join(staticDir, 'index.html'), PAGE);
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1);');
    // A file the static wildcard would serve at an /api/ path if it were asked to.
    fs.mkdirSync(path.join(staticDir, 'api'));
    fs.writeFileSync(path.join(staticDir, 'api', 'file.txt'), 'static file under api');
    server = await startServer({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      env: { ...process.env, CAIRN_TOKEN: TOKEN },
      staticDir,
      allowedHosts: ['cairn.test'],
    });
    port = server.port;
  });
  afterAll(async () => {
    await server?.stop();
    for (const dir of [dataDir, staticDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const unknown = () => [
    '/api/no-such-route',
    '/api/no/such/route',
    '/api/file.txt',
    '/api',
    '/api/',
    '/api/health/',
    '/%61pi/no-such-route',
    '/%61pi/file.txt',
    '//api/no-such-route',
    '//api/sessions',
    '/./api/no-such-route',
    '/api/../api/no-such-route',
    '/API/no-such-route',
    '/API/sessions',
    '/api%2fsessions',
    '/api/no-such-route?',
    '/api/no-such-route?x=1',
    '/api/no-such-route#',
    `http://127.0.0.1:${port}/api/no-such-route`,
  ];
  const known = () => [
    '/api/sessions',
    '/%61pi/sessions',
    '/a%70i/sessions',
    `http://127.0.0.1:${port}/api/sessions`,
    '/api/sessions?',
  ];

  it('has the static wildcard route, so the checks below meet it', () => {
    const keys = server.server.routes.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining(['GET /*', 'HEAD /*', 'GET /api/health', 'GET /api/mcp/oauth/callback']),
    );
  });

  it('answers every /api/ path without a token with 401, known or not, for every method', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const target of [...unknown(), ...known()]) {
        const res = await send(method, target);
        const label = `${method} ${target}`;
        expect(res.status, label).toBe(401);
        if (method !== 'HEAD') expect(errorCode(res), label).toBe('unauthorized');
      }
    }
  });

  it('answers an unknown /api/ path with a valid token with 404, never with a static file', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'OPTIONS']) {
      for (const target of unknown()) {
        const res = await send(method, target, auth());
        const label = `${method} ${target}`;
        expect(res.status, label).toBe(404);
        if (method !== 'HEAD') expect(errorCode(res), label).toBe('not_found');
        expect(res.text, label).not.toContain('static file under api');
        expect(res.text, label).not.toContain(PAGE);
      }
    }
    for (const target of known()) expect((await send('GET', target, auth())).status, target).toBe(200);
  });

  it('keeps the health check and the UI’s files public', async () => {
    expect((await send('GET', '/api/health')).status).toBe(200);
    for (const target of ['/', '/index.html', '/some/page/of/the/app', '/apix', '/api;x']) {
      const res = await send('GET', target);
      expect(res.status, target).toBe(200);
      expect(res.text, target).toBe(PAGE);
    }
    const script = await send('GET', '/assets/app.js');
    expect(script.status).toBe(200);
    expect(script.text).toBe('console.log(1);');
    expect((await send('HEAD', '/')).status).toBe(200);
  });

  it('keeps the MCP login callback public (the browser brings no token), and only its GET', async () => {
    const res = await send('GET', '/api/mcp/oauth/callback?state=not-one-cairn-issued&code=x');
    // Reached the route: an unknown state is refused by the page itself, not by the token check.
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    expect(res.text).toContain('not one Cairn is waiting for');
    for (const [method, target] of [
      ['POST', '/api/mcp/oauth/callback'],
      ['GET', '/api/mcp/oauth/callback/x'],
      ['GET', '/api/mcp/oauth'],
      ['GET', '/api/mcp/servers'],
      ['POST', '/api/mcp/servers/x/authorize'],
    ] as const) {
      const refused = await send(method, target);
      expect(refused.status, `${method} ${target}`).toBe(401);
      expect(errorCode(refused), `${method} ${target}`).toBe('unauthorized');
    }
  });

  it('refuses a WebSocket upgrade to an unknown /api/ path: 401 without a token, 404 with one', async () => {
    for (const target of ['/api/no-such-route', '/%61pi/no-such-route', '/API/ws', '//api/ws', '/api/ws/x']) {
      expect(await upgradeStatus(port, target), target).toBe(401);
      expect(await upgradeStatus(port, target, auth()), target).toBe(404);
    }
    // The real WebSocket route still upgrades (it authenticates with its first message).
    expect(await upgradeStatus(port, '/api/ws')).toBe(101);
  });

  it('refuses a malformed Host with 403 before anything else, health and the page included', async () => {
    for (const host of [
      `[::1]evil`,
      `[::1].evil:${port}`,
      `127.0.0.1:${port}, evil.example`,
      `127.0.0.1:${port} evil.example`,
      `127.0.0.1:${port}:${port}`,
      '127.0.0.1:',
      `cairn.test:${port}, evil.example`,
      `user@127.0.0.1:${port}`,
      `::1:${port}`,
    ]) {
      for (const [target, headers] of [
        ['/api/sessions', auth()],
        ['/api/health', {}],
        ['/', {}],
      ] as const) {
        const res = await send('GET', target, { ...headers, host });
        expect(res.status, `${host} ${target}`).toBe(403);
        expect(errorCode(res), `${host} ${target}`).toBe('forbidden');
      }
    }
  });

  it('refuses two Host headers, and an absolute-form target naming another host', async () => {
    const twice = await writtenRequest(
      port,
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\n`,
    );
    expect(twice.status).toBe(403);
    expect(JSON.parse(twice.text)).toMatchObject({ error: { code: 'forbidden' } });
    const elsewhere = await send('GET', 'http://evil.example/api/health');
    expect(elsewhere.status).toBe(403);
    expect(errorCode(elsewhere)).toBe('forbidden');
  });

  it('accepts loopback and allowed Hosts in any case, and the page origin that goes with them', async () => {
    for (const host of [`LOCALHOST:${port}`, `[::1]:${port}`, 'Cairn.Test', `CAIRN.TEST:${port}`]) {
      expect((await send('GET', '/api/sessions', { ...auth(), host })).status, host).toBe(200);
    }
    const origin = `http://localhost:${port}`;
    const res = await send('GET', '/api/sessions', { ...auth(), host: `LocalHost:${port}`, origin });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
  });
});
