import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { VERSION } from '../../src/config/version';
import { Health, WS_CLOSE_UNAUTHENTICATED } from '../../src/protocol';
import { connectWs, type Harness, startHarness, TEST_KEY } from '../support/harness';
import { errorCode, json, type RawResponse, rawRequest } from './raw-http';

const DUMMY_ID = 'dummy-id-0000';

/** A route pattern made concrete: every `:param` and wildcard becomes a dummy value. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, DUMMY_ID).replace(/\*/g, 'x');
}

function send(h: Harness, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return rawRequest({
    port: h.server.port,
    method,
    path,
    headers: { host: `127.0.0.1:${h.server.port}`, ...headers },
    body,
  });
}

function expectUnauthorized(res: RawResponse, label: string): void {
  expect(res.status, label).toBe(401);
  expect(errorCode(res), label).toBe('unauthorized');
}

function corsHeaders(res: RawResponse): string[] {
  return Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));
}

/** Opens a WebSocket with custom handshake headers; resolves with the HTTP status of a refused upgrade. */
function refusedUpgrade(h: Harness, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${h.server.port}${path}`, { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.on('error', () => {});
  });
}

/** The server's open connection count once it stops changing (polled: closing a socket is asynchronous). */
async function serverConnectionsSettled(h: Harness): Promise<number> {
  const count = () =>
    new Promise<number>((resolve, reject) =>
      h.server.server.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );
  let n = await count();
  for (let i = 0; i < 200 && n > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    n = await count();
  }
  return n;
}

describe('HTTP authentication', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('refuses every route without a token except health, the static page and the MCP login callback', async () => {
    const routes = h.server.server.routes;
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    // The list must be the real router's, or this test would pass on nothing.
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'GET /api/ws',
        'GET /',
        'POST /api/sessions/:id/turns',
        'PUT /api/models/:id/key',
        'POST /api/projects',
        'DELETE /api/sessions/:id',
        'GET /api/sessions/:id/events',
        'POST /api/turns/:id/cancel',
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);

    const checked: string[] = [];
    for (const route of routes) {
      const path = concrete(route.url);
      const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const res = await send(
        h,
        route.method,
        path,
        hasBody ? { 'content-type': 'application/json' } : {},
        hasBody ? '{}' : undefined,
      );
      const label = `${route.method} ${route.url}`;
      if (route.url === '/api/health') {
        expect(res.status, label).toBe(200);
        expect(Health.parse(json(res))).toEqual({ ok: true, name: 'cairn', version: VERSION });
      } else if (route.url === '/') {
        expect(res.status, label).toBe(200);
        expect(res.headers['content-type'], label).toMatch(/^text\/html/);
      } else if (route.url === '/api/mcp/oauth/callback') {
        // Public, for the browser coming back from a login: without a state Cairn issued it does nothing.
        expect(res.status, label).toBe(400);
        expect(res.headers['content-type'], label).toMatch(/^text\/html/);
      } else {
        // /api/ws included: a plain GET without an upgrade is an ordinary request and needs the token.
        expectUnauthorized(res, label);
        checked.push(label);
      }
    }
    expect(checked).toContain('GET /api/ws');
    expect(checked.length).toBe(routes.length - 3);
  });

  it('refuses unknown API paths without a token rather than revealing they do not exist', async () => {
    expectUnauthorized(await send(h, 'GET', '/api/no-such-route'), 'unknown route');
  });

  it('asks for the token however the path is spelled: percent-encoded or in absolute form', async () => {
    // The router decodes paths and takes absolute-form targets; the guard must see what the router sees.
    for (const [method, path] of [
      ['GET', '/%61pi/projects'],
      ['GET', '/a%70i/capabilities'],
      ['GET', '/%61%70%69/models'],
      ['GET', '/api/%70rojects'],
      ['POST', '/%61pi/projects'],
      ['GET', `http://127.0.0.1:${h.server.port}/api/projects`],
      ['GET', '/api/sessions/../projects'],
      ['GET', '//api/projects'],
    ] as const) {
      const res = await send(
        h,
        method,
        path,
        method === 'POST' ? { 'content-type': 'application/json' } : {},
        method === 'POST' ? JSON.stringify({ path: h.projectDir }) : undefined,
      );
      expect(res.status, `${method} ${path}`).not.toBe(200);
      expect(res.status, `${method} ${path}`).not.toBe(201);
      if (res.status !== 404) expectUnauthorized(res, `${method} ${path}`);
    }
    const projects = await send(h, 'GET', '/api/projects', { authorization: `Bearer ${h.server.token}` });
    expect(json<{ projects: unknown[] }>(projects).projects).toEqual([]);
  });

  it('accepts only the exact bearer token', async () => {
    const token = h.server.token;
    const bad: Record<string, string> = {
      wrong: 'Bearer not-the-token-0123456789-abcdefghij',
      prefix: `Bearer ${token.slice(0, -1)}`,
      'first half': `Bearer ${token.slice(0, token.length / 2)}`,
      'repeated twice': `Bearer ${token}${token}`,
      'space then junk': `Bearer ${token} x`,
      'comma-separated twice': `Bearer ${token},${token}`,
      'comma-space separated twice': `Bearer ${token}, Bearer ${token}`,
      'no scheme': token,
      'basic scheme': `Basic ${token}`,
      'basic scheme, base64': `Basic ${Buffer.from(`cairn:${token}`).toString('base64')}`,
      empty: 'Bearer ',
    };
    for (const [label, authorization] of Object.entries(bad)) {
      expectUnauthorized(await send(h, 'GET', '/api/sessions', { authorization }), label);
    }
    expectUnauthorized(
      await send(h, 'GET', `/api/sessions?token=${encodeURIComponent(token)}`),
      'query token',
    );
    expectUnauthorized(
      await send(h, 'GET', `/api/sessions?access_token=${encodeURIComponent(token)}`),
      'query access_token',
    );
    const ok = await send(h, 'GET', '/api/sessions', { authorization: `Bearer ${token}` });
    // The scheme is case-insensitive (RFC 7235); the token itself is not.
    const lower = await send(h, 'GET', '/api/sessions', { authorization: `bearer ${token}` });
    expect(lower.status).toBe(200);
    const upperToken = await send(h, 'GET', '/api/sessions', {
      authorization: `Bearer ${token.toUpperCase()}`,
    });
    expect(upperToken.status).toBe(401);
    expect(ok.status).toBe(200);
    expect(json<{ sessions: unknown[] }>(ok).sessions).toEqual([]);
  });

  it('treats trailing whitespace as HTTP does: not part of the header value', async () => {
    // RFC 9110 §5.5: optional whitespace around a field value is not part of it, and Node's parser drops it,
    // so the server cannot see it. What matters is that nothing else may follow the token.
    const res = await send(h, 'GET', '/api/sessions', { authorization: `Bearer ${h.server.token} ` });
    expect([200, 401]).toContain(res.status);
    expectUnauthorized(
      await send(h, 'GET', '/api/sessions', { authorization: `Bearer ${h.server.token} ${h.server.token}` }),
      'token, space, token',
    );
  });
});

describe('Host and Origin checks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const auth = () => ({ authorization: `Bearer ${h.server.token}` });

  it('answers a foreign Host with 403 before looking at the token', async () => {
    for (const host of [
      'evil.example',
      'evil.example:8765',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
    ]) {
      for (const headers of [{ host }, { host, ...auth() }]) {
        const res = await rawRequest({ port: h.server.port, method: 'GET', path: '/api/sessions', headers });
        expect(res.status, host).toBe(403);
        expect(errorCode(res), host).toBe('forbidden');
      }
      // Even the public routes: a rebinding page must not read anything, health included.
      const health = await rawRequest({
        port: h.server.port,
        method: 'GET',
        path: '/api/health',
        headers: { host },
      });
      expect(health.status, `${host} health`).toBe(403);
    }
  });

  it('accepts loopback Host names', async () => {
    const port = h.server.port;
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'localhost',
      '127.0.0.1',
    ]) {
      const res = await rawRequest({
        port,
        method: 'GET',
        path: '/api/sessions',
        headers: { host, ...auth() },
      });
      expect(res.status, host).toBe(200);
      const anonymous = await rawRequest({ port, method: 'GET', path: '/api/sessions', headers: { host } });
      expectUnauthorized(anonymous, `${host} without token`);
    }
  });

  it('refuses a foreign Origin even with a valid token', async () => {
    for (const origin of [
      'http://evil.example',
      'null',
      `http://evil.example:${h.server.port}`,
      'app://evil',
    ]) {
      const res = await send(h, 'GET', '/api/sessions', { origin, ...auth() });
      expect(res.status, origin).toBe(403);
      expect(errorCode(res), origin).toBe('forbidden');
      expect(corsHeaders(res), origin).toEqual([]);
    }
  });

  it("accepts the app's origin and the server's own", async () => {
    const own = `http://127.0.0.1:${h.server.port}`;
    for (const origin of ['app://cairn', own]) {
      const res = await send(h, 'GET', '/api/sessions', { origin, ...auth() });
      expect(res.status, origin).toBe(200);
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
    }
    // The page's own origin follows the Host it was loaded from.
    const viaLocalhost = await rawRequest({
      port: h.server.port,
      method: 'GET',
      path: '/api/sessions',
      headers: { host: `localhost:${h.server.port}`, origin: `http://localhost:${h.server.port}`, ...auth() },
    });
    expect(viaLocalhost.status).toBe(200);
  });

  it('answers a CORS preflight from an allowed origin without a token', async () => {
    for (const origin of ['app://cairn', `http://127.0.0.1:${h.server.port}`]) {
      const res = await send(h, 'OPTIONS', '/api/sessions/abc/turns', {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      });
      expect(res.status, origin).toBe(204);
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(res.headers['access-control-allow-headers'], origin).toMatch(/authorization/i);
      expect(res.headers['access-control-allow-methods'], origin).toMatch(/POST/);
    }
  });

  it('refuses a CORS preflight from a foreign origin, with no CORS headers', async () => {
    const res = await send(h, 'OPTIONS', '/api/sessions/abc/turns', {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization',
    });
    expect(res.status).toBe(403);
    expect(corsHeaders(res)).toEqual([]);
  });

  it('refuses a WebSocket handshake from a foreign Origin or Host, and lets go of its socket', async () => {
    expect(await refusedUpgrade(h, '/api/ws', { origin: 'http://evil.example' })).toBe(403);
    expect(await refusedUpgrade(h, '/api/ws', { host: 'evil.example' })).toBe(403);
    // An upgrade to any other API path is an ordinary request that needs the token.
    expect(await refusedUpgrade(h, '/api/sessions', {})).toBe(401);
    // A refused handshake must not leave its socket open on the server (it would also hold up close()).
    expect(await serverConnectionsSettled(h)).toBe(0);
  });

  it('treats an Upgrade header without a real upgrade as a plain request needing the token', async () => {
    const res = await send(h, 'GET', '/api/ws', { upgrade: 'websocket', connection: 'close' });
    expectUnauthorized(res, 'fake upgrade');
  });
});

describe('WebSocket authentication', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('closes an unauthenticated socket with 4401 after the window, having sent nothing', async () => {
    h = await startHarness({ env: { CAIRN_WS_AUTH_TIMEOUT_MS: '200' } });
    const ws = await connectWs(h.server.url);
    const { code } = await ws.closed;
    expect(code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect(ws.messages).toEqual([]);
  });

  it('closes on a wrong token, having sent nothing', async () => {
    h = await startHarness({ env: { CAIRN_WS_AUTH_TIMEOUT_MS: '30000' } });
    for (const token of ['wrong', h.server.token.slice(0, -1), `${h.server.token}${h.server.token}`, '']) {
      const ws = await connectWs(h.server.url);
      ws.send({ type: 'authenticate', token });
      expect((await ws.closed).code, token).toBe(WS_CLOSE_UNAUTHENTICATED);
      expect(ws.messages, token).toEqual([]);
    }
    // Not JSON, or JSON of the wrong shape, as the first message.
    for (const raw of [
      'hello',
      JSON.stringify({ type: 'authenticate' }),
      JSON.stringify({ token: h.server.token }),
    ]) {
      const ws = await connectWs(h.server.url);
      ws.socket.send(raw);
      expect((await ws.closed).code, raw).toBe(WS_CLOSE_UNAUTHENTICATED);
      expect(ws.messages, raw).toEqual([]);
    }
  });

  it('leaks no events to a subscribe sent before authenticating', async () => {
    h = await startHarness({ env: { CAIRN_WS_AUTH_TIMEOUT_MS: '30000' } });
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'Something worth stealing.' }] });
    const turn = await h.startTurn(sessionId, 'say something');
    await h.waitForTurnEnd(turn.id);
    expect((await h.events(sessionId)).length).toBeGreaterThan(2);

    const ws = await connectWs(h.server.url);
    ws.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    // A correct token right after must not rescue the connection.
    ws.send({ type: 'authenticate', token: h.server.token });
    expect((await ws.closed).code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect(ws.messages).toEqual([]);
  });

  it('ignores a token in the WebSocket URL', async () => {
    h = await startHarness({ env: { CAIRN_WS_AUTH_TIMEOUT_MS: '200' } });
    const socket = new WebSocket(`ws://127.0.0.1:${h.server.port}/api/ws?token=${h.server.token}`);
    const messages: string[] = [];
    socket.on('message', (raw) => messages.push(raw.toString()));
    const code = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
    expect(code).toBe(WS_CLOSE_UNAUTHENTICATED);
    expect(messages).toEqual([]);
  });

  it('authenticates with the right token as the first message', async () => {
    h = await startHarness({ env: { CAIRN_WS_AUTH_TIMEOUT_MS: '200' } });
    const ws = await connectWs(h.server.url);
    ws.send({ type: 'authenticate', token: h.server.token });
    expect(await ws.next((m) => m.type === 'authenticated')).toEqual({ type: 'authenticated' });
    expect(ws.messages).toEqual([{ type: 'authenticated' }]);
    // Past the auth window, an authenticated socket stays open and usable.
    const { sessionId } = await h.newSession();
    await new Promise((resolve) => setTimeout(resolve, 300));
    ws.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    await ws.next((m) => m.type === 'subscribed');
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);
    ws.socket.close();
  });
});

describe('secrets in responses', () => {
  let h: Harness;
  const saved: Record<string, string | undefined> = {};

  afterEach(async () => {
    await h?.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  // KNOWN BUG (sidecar/src/agent/model-errors.ts): a provider error that echoes the key (some proxies do)
  // is copied verbatim into the turn's error, and from there into GET /api/turns/:id, the turn.failed
  // event and the WebSocket. The logs redact it; the API does not. Drop `.fails` once the message is redacted.
  it('does not echo the API key from a provider error message', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      kind: 'http_error',
      status: 401,
      type: 'authentication_error',
      message: `invalid x-api-key: ${TEST_KEY}`,
    });
    const turn = await h.startTurn(sessionId, 'hello');
    const done = await h.waitForTurnEnd(turn.id);
    expect(done.status).toBe('failed');
    const bodies = [JSON.stringify(done), JSON.stringify(await h.events(sessionId))];
    for (const body of bodies) expect(body).not.toContain(TEST_KEY);
  });

  it('never returns the server token or the API key', async () => {
    h = await startHarness();
    const token = h.server.token;
    // What a real sidecar has in its own environment; a tool's child process must not pass it on.
    const planted = {
      CAIRN_TOKEN: token,
      CAIRN_ANTHROPIC_API_KEY: TEST_KEY,
      ANTHROPIC_API_KEY: TEST_KEY,
      MY_COPY: TEST_KEY,
    };
    for (const [name, value] of Object.entries(planted)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }

    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'text', text: 'Looking at the environment.' },
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'env; echo "k=$CAIRN_ANTHROPIC_API_KEY t=$CAIRN_TOKEN"' },
          },
        ],
      },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    const turn = await h.startTurn(sessionId, 'show me the environment');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const model = await h.api<{ id: string }>('POST', '/api/models', { name: 'Test', model: 'claude-test' });
    expect(model.status).toBe(201);
    const setKey = await h.api('PUT', `/api/models/${model.body.id}/key`, { key: TEST_KEY });
    expect(setKey.status).not.toBe(500);

    const page = await h.api<{ turns: { tool_calls: { id: string }[] }[] }>(
      'GET',
      `/api/sessions/${sessionId}/turns`,
    );
    const callId = page.body.turns[0]?.tool_calls[0]?.id;
    expect(callId).toBeDefined();

    const routes = [
      '/api/health',
      '/api/capabilities',
      '/api/models',
      '/api/projects',
      '/api/sessions',
      `/api/sessions/${sessionId}`,
      `/api/sessions/${sessionId}/events`,
      `/api/sessions/${sessionId}/turns`,
      `/api/sessions/${sessionId}/questions`,
      `/api/turns/${turn.id}`,
      `/api/tool-calls/${callId}`,
      '/',
    ];
    const bodies = [JSON.stringify(setKey.body)];
    for (const route of routes) {
      const res = await send(h, 'GET', route, { authorization: `Bearer ${token}` });
      expect(res.status, route).toBe(200);
      bodies.push(res.text, JSON.stringify(res.headers));
    }
    // The tool ran and its output is there, so the scan below looks at real content.
    expect(bodies.join('\n')).toContain('PATH=');
    for (const body of bodies) {
      expect(body).not.toContain(token);
      expect(body).not.toContain(TEST_KEY);
    }
  });
});

describe('a URL the router cannot parse', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('gets the Host check first, then a 400 in the API’s error shape', async () => {
    h = await startHarness();
    const foreign = await send(h, 'GET', '/api/sessions/%ZZ', { host: 'evil.example' });
    expect(foreign.status).toBe(403);
    const local = await send(h, 'GET', '/api/sessions/%ZZ', {});
    expect(local.status).toBe(400);
    expect(JSON.parse(local.text)).toMatchObject({ error: { code: 'bad_request' } });
  });
});
