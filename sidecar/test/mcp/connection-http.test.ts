import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpCallError, McpConnection, McpConnectionError } from '../../src/mcp/mcp-connection';
import { type LoopbackServer, listenOnLoopback } from '../support/loopback-server';
import { type HttpFixture, startHttpFixture } from './support/http-fixture';
import {
  connectionsClosedAfterEach,
  type EverythingHttp,
  httpServer,
  startEverythingHttp,
  waitFor,
} from './support/mcp-servers';

const connect = connectionsClosedAfterEach();

describe('McpConnection over Streamable HTTP with server-everything on 127.0.0.1', () => {
  let everything: EverythingHttp;
  beforeAll(async () => {
    everything = await startEverythingHttp();
  });
  afterAll(async () => {
    await everything?.stop();
  });

  it('initializes, lists tools, calls echo, keeps an image and reports isError', async () => {
    const conn = await connect(httpServer(everything.url), {});
    expect(conn.state).toBe('connected');
    expect(conn.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-tiny-image']));
    expect((await conn.callTool('echo', { message: 'over http' }, {})).text).toContain('over http');
    const img = await conn.callTool('get-tiny-image', {}, {});
    expect(img.attachments.find((a) => a.type === 'image')).toMatchObject({ mimeType: 'image/png' });
    expect((await conn.callTool('echo', { message: 1 }, {})).isError).toBe(true);
  });

  it('applies allow and deny lists', async () => {
    const conn = await connect(httpServer(everything.url, { allowTools: null, denyTools: ['echo'] }), {});
    expect(conn.tools.find((t) => t.name === 'echo')?.allowed).toBe(false);
    expect(conn.tools.find((t) => t.name === 'get-sum')?.allowed).toBe(true);
    await expect(conn.callTool('echo', { message: 'x' }, {})).rejects.toThrow(/not allowed/);
  });

  it('times out a call that runs too long', async () => {
    const conn = await connect(httpServer(everything.url, { toolTimeoutMs: 500 }), {});
    const err = await conn
      .callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(/did not answer within 0\.5 s; the call was cancelled/);
    expect((await conn.callTool('echo', { message: 'next' }, {})).text).toContain('next');
  });
});

describe('McpConnection HTTP rules', () => {
  it('refuses plain http:// to a non-loopback host before connecting', async () => {
    const err = await McpConnection.connect(httpServer('http://192.0.2.1/mcp'), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as Error).message).toMatch(/Refusing plain http to 192\.0\.2\.1.*use https:\/\//);
  });

  it('reports a refused connection clearly', async () => {
    const closed = await listenOnLoopback((_req, res) => res.end());
    const url = `${closed.url}/mcp`;
    await closed.close();
    const err = await McpConnection.connect(httpServer(url), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as Error).message).toMatch(/could not connect: .*ECONNREFUSED/);
  });

  it('refuses other schemes and bad URLs', async () => {
    await expect(McpConnection.connect(httpServer('ftp://127.0.0.1/mcp'), {})).rejects.toThrow(
      /must be an http\(s\) URL/,
    );
    await expect(McpConnection.connect(httpServer('not a url'), {})).rejects.toThrow(/is not a URL/);
  });

  let redirector: LoopbackServer | null = null;
  afterEach(async () => {
    await redirector?.close();
    redirector = null;
  });

  it('does not follow a redirect, even within the same origin, and sends the configured headers', async () => {
    // Same origin on purpose: the SDK on its own would follow this one.
    redirector = await listenOnLoopback((req, res) => {
      if (req.url === '/mcp') res.writeHead(307, { location: '/elsewhere' }).end();
      else res.writeHead(500).end();
    });
    const err = await McpConnection.connect(
      httpServer(`${redirector.url}/mcp`, { headers: { Authorization: 'Bearer tok-123' } }),
      {},
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as Error).message).toMatch(
      /answered with a redirect \(HTTP 307 to \/elsewhere\); redirects are not followed/,
    );
    expect(redirector.requests).toEqual([{ method: 'POST', url: '/mcp', authorization: 'Bearer tok-123' }]);
  });

  it('a server that goes away mid-call fails the call at once and, after bounded reconnects, the connection', async () => {
    const server = await startEverythingHttp();
    try {
      const conn = await connect(httpServer(server.url, { toolTimeoutMs: 60_000 }), {});
      const states: string[] = [];
      conn.onStateChange((s) => states.push(s));
      const postsBefore = server.posts();
      const pending = conn
        .callTool('trigger-long-running-operation', { duration: 30, steps: 30 }, {})
        .catch((e: unknown) => e);
      await waitFor(() => server.posts() > postsBefore, 10_000, 'the call to reach the server');
      await new Promise((r) => setTimeout(r, 200)); // let it start answering on its event stream
      await server.stop();
      const err = await pending;
      expect(err).toBeInstanceOf(McpCallError);
      expect((err as Error).message).toMatch(
        /the connection to the server dropped during the call \(.*\); it was not retried/,
      );
      expect((err as Error).message).not.toMatch(/did not answer within/);
      await waitFor(() => conn.state === 'crashed', 30_000, 'the connection to be marked lost');
      expect(states).toEqual(['crashed']);
      await expect(conn.callTool('echo', { message: 'x' }, {})).rejects.toThrow(
        /was lost and did not come back after 3 attempts/,
      );
    } finally {
      await server.stop();
    }
  });
});

describe('McpConnection HTTP limits and session', () => {
  let fixture: HttpFixture;
  beforeAll(async () => {
    fixture = await startHttpFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('fails a response over 8 MiB, stays usable, sends headers on every request and ends the session on close', async () => {
    const conn = await McpConnection.connect(httpServer(fixture.url, { headers: { 'X-Test': 'yes' } }), {});
    expect(conn.serverInfo).toEqual({ name: 'http-fixture', version: '1.0.0' });
    const err = await conn.callTool('big', {}, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(/response is over the 8 MiB limit for one result/);
    expect(conn.state).toBe('connected');
    expect((await conn.callTool('echo', { message: 'small' }, {})).text).toBe('small');
    await conn.close();
    expect(conn.state).toBe('stopped');
    expect(fixture.seen.every((r) => r.xTest === 'yes')).toBe(true);
    const del = fixture.seen.find((r) => r.method === 'DELETE');
    expect(del?.session).toBe('fixture-session-1');
  });
});
