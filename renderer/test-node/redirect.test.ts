import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, CairnClient } from '../../sidecar/src/client';
import { type LoopbackServer, listenOnLoopback } from '../../sidecar/test/support/loopback-server';
import { probeBackend } from '../src/api/probe';

// A redirect could carry the token to another host, so the client never follows one. Real servers on
// loopback, Node's own fetch: one that answers every request with a redirect, and the "other host" it
// points to, which records whatever reaches it.

/** A loopback server that reads each request to its end before `handler` answers it. */
function listen(handler: http.RequestListener): Promise<LoopbackServer> {
  return listenOnLoopback((req, res) => {
    req.resume();
    handler(req, res);
  });
}

const TOKEN = 'redirect-test-token-0123456789';
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The other host, answering like a Cairn server would, and a server redirecting everything to it. */
async function redirectPair(status: number) {
  const other = await listen((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, name: 'cairn', version: '9.9.9', path: req.url }));
  });
  const redirector = await listen((req, res) => {
    res.writeHead(status, { location: `${other.url}${req.url}` });
    res.end();
  });
  servers.push(other, redirector);
  return { other, redirector, client: new CairnClient({ url: redirector.url, token: TOKEN }) };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the client and redirects', () => {
  for (const status of [301, 302, 307, 308]) {
    it(`refuses a ${status} redirect: the other host never sees a request, let alone the token`, async () => {
      const { other, redirector, client } = await redirectPair(status);
      const error = await rejection(client.capabilities());
      expect(error.code).toBe('redirect');
      expect(error.message).toBe(
        `The server at ${redirector.url} answered with a redirect. Cairn never follows redirects, so the token cannot be sent to another address: enter the server's final address instead.`,
      );
      expect(other.requests).toEqual([]);
      // The token went only to the address it was meant for.
      expect(redirector.requests.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`]);
    });
  }

  it('recognises a redirect when fetch says only "Failed to fetch", as a browser does', async () => {
    const { other, redirector } = await redirectPair(302);
    // Node's fetch names the redirect in the error's cause; a browser's does not. Take it away.
    const browserLike: typeof fetch = async (input, init) => {
      try {
        return await fetch(input, init);
      } catch {
        throw new TypeError('Failed to fetch');
      }
    };
    const client = new CairnClient({ url: redirector.url, token: TOKEN }, browserLike);
    const error = await rejection(client.capabilities());
    expect(error.code).toBe('redirect');
    expect(other.requests).toEqual([]);
    // The second look, which saw the redirect without following it, carried no token.
    expect(redirector.requests.map((r) => [r.method, r.url, r.authorization])).toEqual([
      ['GET', '/api/capabilities', `Bearer ${TOKEN}`],
      ['GET', '/api/capabilities', undefined],
    ]);
  });

  it('refuses redirects on writes, the health probe and full tool results too', async () => {
    const { other, client } = await redirectPair(307);
    for (const call of [
      () => client.health(),
      () => client.setModelKey('m1', 'sk-ant-secret'),
      () => client.startTurn('s1', 'hello', 'r1'),
      () => client.toolCall('tc1'),
    ]) {
      expect((await rejection(call())).code).toBe('redirect');
    }
    expect(other.requests).toEqual([]);
  });

  it('tells a redirect apart from a server that is not there', async () => {
    const gone = await listen(() => undefined);
    await gone.close();
    const error = await rejection(new CairnClient({ url: gone.url, token: TOKEN }).capabilities());
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/^Cannot reach the Cairn server at http:\/\/127\.0\.0\.1:\d+: /);
  });

  it('the connection screen’s probe reports the redirect instead of following it', async () => {
    const { other, redirector } = await redirectPair(302);
    const result = await probeBackend(redirector.url, TOKEN);
    expect(result.kind).toBe('not_cairn');
    expect(result.kind === 'not_cairn' && result.message).toContain('answered with a redirect');
    expect(other.requests).toEqual([]);
  });
});
