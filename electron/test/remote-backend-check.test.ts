import fs from 'node:fs';
import type http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killLeftoverClis, type ServeProcess, startServe } from '../../sidecar/test/cli/cli-process';
import { capabilitiesBody, healthBody } from '../../sidecar/test/support/api-bodies';
import { tempDir } from '../../sidecar/test/support/harness';
import { type LoopbackServer, listenOnLoopback } from '../../sidecar/test/support/loopback-server';
import { checkRemoteBackend } from '../src/remote-backend-check';

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const HEALTH = healthBody('9.9.9');
const CAPABILITIES = capabilitiesBody({ version: '9.9.9' });
const TOKEN = 'remote-token-0123456789abcdef';

/** A real HTTP server on loopback, recording every request it gets; closed after the test. */
const servers: LoopbackServer[] = [];
async function server(handle: http.RequestListener) {
  const started = await listenOnLoopback(handle);
  servers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('checkRemoteBackend against local HTTP servers', () => {
  it('asks /api/health without the token, then /api/capabilities with it', async () => {
    const backend = await server((req, res) => {
      if (req.url === '/api/health') return json(res, 200, HEALTH);
      if (req.url === '/api/capabilities' && req.headers.authorization === `Bearer ${TOKEN}`) {
        return json(res, 200, CAPABILITIES);
      }
      return json(res, 401, { error: { code: 'unauthorized', message: 'Missing or wrong token.' } });
    });
    expect(await checkRemoteBackend(backend.url, TOKEN)).toEqual({
      ok: true,
      version: '9.9.9',
      mode: 'remote',
    });
    expect(backend.requests).toEqual([
      { method: 'GET', url: '/api/health', authorization: undefined },
      { method: 'GET', url: '/api/capabilities', authorization: `Bearer ${TOKEN}` },
    ]);
  });

  it('keeps a path prefix', async () => {
    const backend = await server((req, res) => {
      if (req.url === '/cairn/api/health') return json(res, 200, HEALTH);
      if (req.url === '/cairn/api/capabilities') return json(res, 200, CAPABILITIES);
      return json(res, 404, {});
    });
    expect(await checkRemoteBackend(`${backend.url}/cairn/`, TOKEN)).toMatchObject({ ok: true });
  });

  it('never carries the token to another origin that capabilities redirects to', async () => {
    const elsewhere = await server((_req, res) => json(res, 200, CAPABILITIES));
    const backend = await server((req, res) => {
      if (req.url === '/api/health') return json(res, 200, HEALTH);
      res.writeHead(302, { location: `${elsewhere.url}/api/capabilities` });
      res.end();
    });
    const result = await checkRemoteBackend(backend.url, TOKEN);
    expect(result).toMatchObject({ ok: false, problem: 'redirect' });
    expect(result.ok === false && result.message).toContain(`redirects to ${elsewhere.url}`);
    expect(result.ok === false && result.message).toContain('the token was not sent there');
    expect(elsewhere.requests).toEqual([]);
  });

  it('reports a redirect of health to another port, which then sees nothing at all', async () => {
    const elsewhere = await server((_req, res) => json(res, 200, HEALTH));
    const backend = await server((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/api/health` });
      res.end();
    });
    const result = await checkRemoteBackend(backend.url, TOKEN);
    expect(result).toMatchObject({ ok: false, problem: 'redirect' });
    expect(elsewhere.requests).toEqual([]);
    expect(backend.requests.every((s) => s.authorization === undefined)).toBe(true);
  });

  it('reports a same-origin redirect without following it', async () => {
    const backend = await server((req, res) => {
      res.writeHead(301, { location: `/new${req.url}` });
      res.end();
    });
    const result = await checkRemoteBackend(backend.url, TOKEN);
    expect(result).toMatchObject({ ok: false, problem: 'redirect' });
    expect(result.ok === false && result.message).toContain('redirects to /new/api/health');
    expect(backend.requests).toHaveLength(1);
  });

  it('says when the token is refused, with the server message', async () => {
    const backend = await server((req, res) => {
      if (req.url === '/api/health') return json(res, 200, HEALTH);
      return json(res, 401, { error: { code: 'unauthorized', message: 'Missing or wrong token.' } });
    });
    const result = await checkRemoteBackend(backend.url, 'wrong');
    expect(result).toMatchObject({ ok: false, problem: 'unauthorized' });
    expect(result.ok === false && result.message).toContain('Missing or wrong token');
  });

  it('says when the server is not Cairn', async () => {
    const backend = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    expect(await checkRemoteBackend(backend.url, TOKEN)).toMatchObject({ ok: false, problem: 'not-cairn' });
    expect(backend.requests.every((s) => s.authorization === undefined)).toBe(true);
  });

  it('says when nothing listens there', async () => {
    const gone = await listenOnLoopback((_req, res) => res.end());
    await gone.close();
    expect(await checkRemoteBackend(gone.url, TOKEN)).toMatchObject({ ok: false, problem: 'unreachable' });
  });

  it('refuses a URL it must not send the token to, before any request', async () => {
    const result = await checkRemoteBackend('http://example.com', TOKEN, () => {
      throw new Error('no request may be made');
    });
    expect(result).toMatchObject({ ok: false, problem: 'invalid-url' });
  });
});

describe('checkRemoteBackend against a real `cairn serve`', () => {
  let serve: ServeProcess;
  const dataDir = tempDir('electron-check');

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_TOKEN: undefined, CAIRN_BACKEND_TOKEN: undefined };
    serve = await startServe(dataDir, env);
  });

  afterAll(async () => {
    await killLeftoverClis();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('accepts the right token and refuses a wrong one', async () => {
    expect(await checkRemoteBackend(serve.url, serve.token)).toMatchObject({ ok: true });
    expect(await checkRemoteBackend(serve.url, `${serve.token}x`)).toMatchObject({
      ok: false,
      problem: 'unauthorized',
    });
  });
});
