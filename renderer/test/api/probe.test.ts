import { describe, expect, it } from 'vitest';
import { capabilitiesBody, healthBody } from '../../../sidecar/test/support/api-bodies';
import { probeBackend } from '../../src/api/probe';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const HEALTH = healthBody('1.2.3');
const CAPABILITIES = capabilitiesBody({ shell: false });

type Answer = (path: string, authorization: string | undefined) => Response | Promise<Response>;

function fakeFetch(answer: Answer) {
  const urls: string[] = [];
  const impl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    urls.push(String(input));
    const headers = (init.headers ?? {}) as Record<string, string>;
    return answer(new URL(String(input)).pathname, headers.authorization);
  };
  return { impl: impl as typeof fetch, urls };
}

describe('probeBackend', () => {
  it('is unreachable when nothing answers', async () => {
    const { impl } = fakeFetch(() => {
      throw new TypeError('fetch failed');
    });
    const result = await probeBackend('http://127.0.0.1:9', 'tok', impl);
    expect(result.kind).toBe('unreachable');
    expect(result.kind === 'unreachable' && result.message).toContain('http://127.0.0.1:9');
  });

  it('is not_cairn for an HTML page, a 404, or JSON that is not Cairn health', async () => {
    const answers: Answer[] = [
      () => new Response('<!doctype html><h1>Hello</h1>', { status: 200 }),
      () => new Response('Not Found', { status: 404 }),
      () => json(404, { message: 'Route GET:/api/health not found' }),
      () => json(200, { ok: true, name: 'something-else', version: '1' }),
    ];
    for (const answer of answers) {
      const result = await probeBackend('http://example.test', 'tok', fakeFetch(answer).impl);
      expect(result.kind).toBe('not_cairn');
    }
  });

  it('is token_rejected when health answers and the API says 401', async () => {
    const { impl } = fakeFetch((path, authorization) => {
      if (path === '/api/health') return json(200, HEALTH);
      return authorization === 'Bearer right'
        ? json(200, CAPABILITIES)
        : json(401, { error: { code: 'unauthorized', message: 'Missing or wrong token.' } });
    });
    expect(await probeBackend('http://example.test', 'wrong', impl)).toEqual({
      kind: 'token_rejected',
      version: '1.2.3',
    });
  });

  it('is ok with the version and capabilities, and never puts the token in a URL', async () => {
    const { impl, urls } = fakeFetch((path, authorization) => {
      if (path === '/api/health') return json(200, HEALTH);
      return authorization === 'Bearer right-token' ? json(200, CAPABILITIES) : json(401, {});
    });
    expect(await probeBackend('http://example.test/', 'right-token', impl)).toEqual({
      kind: 'ok',
      version: '1.2.3',
      capabilities: CAPABILITIES,
    });
    expect(urls).toEqual(['http://example.test/api/health', 'http://example.test/api/capabilities']);
    for (const url of urls) expect(url).not.toContain('right-token');
  });

  it('is not_cairn when capabilities answer with something malformed', async () => {
    const { impl } = fakeFetch((path) =>
      path === '/api/health' ? json(200, HEALTH) : json(200, { mode: 'x' }),
    );
    expect((await probeBackend('http://example.test', 'tok', impl)).kind).toBe('not_cairn');
  });
});
