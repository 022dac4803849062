// Where MCP logins come back to, as startServer sets it: the loopback URL of a local server, the
// --public-url of a remote one, and nowhere (logins refused, saying why) for a remote server without it.
// One server at a time, in process, on one data directory.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '../../src/protocol';
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server/start-server';
import { tempDir } from '../support/harness';

const TOKEN = 'callback-base-token-0123456789-abcdefghij';
const CALLBACK = '/api/mcp/oauth/callback';

let dataDir: string;
let httpId: string;
let stdioId: string;

type Api = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: never }>;

async function withServer(
  extra: Partial<StartServerOptions>,
  work: (server: RunningServer, api: Api) => Promise<void>,
): Promise<void> {
  const server = await startServer({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    env: { ...process.env, CAIRN_TOKEN: TOKEN },
    staticDir: null,
    ...extra,
  });
  try {
    await work(server, (method, route, body) => call(server, method, route, body));
  } finally {
    await server.stop();
  }
}

async function call(server: RunningServer, method: string, route: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${server.port}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as never };
}

beforeAll(async () => {
  dataDir = tempDir('callback-base');
  await withServer({}, async (_server, api) => {
    const http = await api('POST', '/api/mcp/servers', {
      name: 'docs',
      transport: 'streamable_http',
      url: 'http://127.0.0.1:9/mcp',
    });
    const stdio = await api('POST', '/api/mcp/servers', {
      name: 'local tool',
      transport: 'stdio',
      command: 'node server.js',
    });
    httpId = (http.body as McpServer).id;
    stdioId = (stdio.body as McpServer).id;
  });
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the redirect URI of MCP logins', () => {
  it('is the loopback URL of a local server; a stdio server has none', async () => {
    await withServer({}, async (server, api) => {
      expect(server.mode).toBe('local');
      const shown = (await api('GET', `/api/mcp/servers/${httpId}`)).body as McpServer;
      expect(shown.redirect_uri).toBe(`${server.url}${CALLBACK}`);
      expect(shown).toMatchObject({ authorization_url: null, logged_in: false });
      expect(((await api('GET', `/api/mcp/servers/${stdioId}`)).body as McpServer).redirect_uri).toBeNull();
    });
  });

  it('is null on a remote server without --public-url, and a login is a 400 naming --public-url', async () => {
    await withServer({ behindTlsProxy: true, allowedHosts: ['cairn.test'] }, async (server, api) => {
      expect(server.mode).toBe('remote');
      expect(((await api('GET', `/api/mcp/servers/${httpId}`)).body as McpServer).redirect_uri).toBeNull();
      const refused = await api('POST', `/api/mcp/servers/${httpId}/authorize`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: { code: 'bad_request', message: expect.stringContaining('--public-url') },
      });
    });
  });

  it('is under --public-url (its path kept) on a remote server started with it', async () => {
    await withServer(
      { behindTlsProxy: true, allowedHosts: ['cairn.test'], publicUrl: 'https://cairn.example.com/base' },
      async (server, api) => {
        expect(server.mode).toBe('remote');
        const shown = (await api('GET', `/api/mcp/servers/${httpId}`)).body as McpServer;
        expect(shown.redirect_uri).toBe(`https://cairn.example.com/base${CALLBACK}`);
      },
    );
  });
});
