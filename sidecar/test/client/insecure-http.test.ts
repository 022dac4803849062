// connect() keeps the token off plain http to another machine (review-1 M4): refused before any request
// unless the host is this machine, the page's own origin, or the caller opts in with allowInsecureHttp.
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { ApiError, connect } from '../../src/client';
import { isLoopbackHostname } from '../../src/client/insecure-http';
import { capabilitiesBody } from '../support/api-bodies';

/** A server's answers without a network: records where each request went and with what Authorization. */
function recordingFetch() {
  const seen: { url: string; authorization: string | null }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
    return new Response(JSON.stringify(capabilitiesBody({ mode: 'remote', version: '1.0.0' })), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

afterEach(() => vi.unstubAllGlobals());

describe('connect over plain http', () => {
  it('refuses another host before sending anything, saying what to use instead', async () => {
    const { seen, fetch } = recordingFetch();
    const refused = await connect({ url: 'http://10.0.0.5:8765', token: 'secret', WebSocket, fetch }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'bad_request' });
    expect((refused as ApiError).message).toMatch(
      /^Refusing to send the token over plain http to 10\.0\.0\.5:8765: use an https:\/\/ address .*allowInsecureHttp: true/,
    );
    await expect(
      connect({ url: 'http://cairn.example.com', token: 'secret', WebSocket, fetch }),
    ).rejects.toThrow('plain http to cairn.example.com');
    expect(seen).toEqual([]);
  });

  it('sends to another host when the caller allows it, and always over https or to this machine', async () => {
    const { seen, fetch } = recordingFetch();
    const urls = [
      'http://10.0.0.5:8765',
      'https://cairn.example.com',
      'http://127.0.0.1:8765',
      'http://[::1]:8765',
    ];
    for (const url of urls) {
      const allowInsecureHttp = url === 'http://10.0.0.5:8765';
      const cairn = await connect({ url, token: 'secret', WebSocket, fetch, allowInsecureHttp });
      expect(cairn.capabilities.mode).toBe('remote');
    }
    expect(seen.map((s) => new URL(s.url).origin)).toEqual(urls);
    expect(seen.every((s) => s.authorization === 'Bearer secret')).toBe(true);
  });

  it("allows a page's own origin in a browser (the page came from there already)", async () => {
    vi.stubGlobal('location', { origin: 'http://10.0.0.5:8765' });
    const { seen, fetch } = recordingFetch();
    await connect({ url: 'http://10.0.0.5:8765', token: 'secret', WebSocket, fetch });
    await expect(connect({ url: 'http://10.0.0.6:8765', token: 'secret', WebSocket, fetch })).rejects.toThrow(
      'plain http to 10.0.0.6:8765',
    );
    expect(seen).toHaveLength(1);
  });

  it('reads only 127.0.0.0/8, ::1 and localhost as this machine', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '[::1]', '::1']) {
      expect(isLoopbackHostname(host), host).toBe(true);
    }
    for (const host of [
      '10.0.0.5',
      '0.0.0.0',
      '128.0.0.1',
      '127.0.0.1.evil.com',
      'localhost.evil.com',
      '[::2]',
    ]) {
      expect(isLoopbackHostname(host), host).toBe(false);
    }
  });
});
