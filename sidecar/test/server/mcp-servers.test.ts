import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capabilities, McpServer, McpServerList } from '../../src/protocol';
import { allFiles } from '../support/data-files';
import { type Harness, startHarness } from '../support/harness';
import { useKeyringInProcess } from '../support/keyring-in-process';

type ErrorBody = { error: { code: string; message: string } };

const SECRET = 'mcp-secret-value-4f3e2d1c0b9a8877';

describe('MCP server configs (real sidecar, real SQLite, a real keyring)', () => {
  useKeyringInProcess();
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const create = (body: Record<string, unknown>) =>
    h.api<McpServer & ErrorBody>('POST', '/api/mcp/servers', body);

  it('says MCP is available', async () => {
    expect((await h.api<Capabilities>('GET', '/api/capabilities')).body.mcp).toBe(true);
  });

  it('creates a stdio server disabled, with the defaults filled in', async () => {
    const res = await create({
      name: 'everything',
      transport: 'stdio',
      command: 'npx -y "@modelcontextprotocol/server-everything" stdio',
      env: { LOG_LEVEL: 'debug', HOME_DIR: { env: 'HOME' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'everything',
      enabled: false,
      transport: 'stdio',
      command: 'npx -y "@modelcontextprotocol/server-everything" stdio',
      env: { LOG_LEVEL: 'debug', HOME_DIR: { env: 'HOME' } },
      url: null,
      headers: {},
      bearer_token: null,
      allow_tools: null,
      deny_tools: [],
      startup_timeout_sec: 30,
      tool_timeout_sec: 120,
      block_on_failure: false,
    });
    expect(res.body.id).toMatch(/^mcp_/);
    const list = await h.api<McpServerList>('GET', '/api/mcp/servers');
    expect(list.body.servers.map((s) => s.name)).toEqual(['everything']);
  });

  it('refuses what cannot work, saying why, and saves nothing', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ name: 'q', transport: 'stdio', command: 'npx "unclosed' }, 400, /command line/],
      [{ name: 'q', transport: 'stdio' }, 400, /needs its command line/],
      [{ name: 'q', transport: 'streamable_http', url: 'http://mcp.example.com/mcp' }, 400, /plain http/],
      [{ name: 'q', transport: 'streamable_http' }, 400, /needs its endpoint/],
      [{ name: 'q', transport: 'stdio', command: 'x', url: 'https://a.example/mcp' }, 400, /no url/],
      [
        { name: 'q', transport: 'streamable_http', url: 'https://a.example/mcp', env: { A: 'b' } },
        400,
        /stdio/,
      ],
      [{ name: 'q', transport: 'stdio', command: 'x', env: { 'BAD NAME': 'v' } }, 400, /env/],
      [{ name: 'q', transport: 'stdio', command: 'x', surprise: 1 }, 400, /surprise|unrecognized/i],
      [{ name: 'everything', transport: 'stdio', command: 'x' }, 409, /exists already/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await h.api<McpServerList>('GET', '/api/mcp/servers')).body.servers).toHaveLength(1);
  });

  it('accepts https anywhere and plain http to this machine only', async () => {
    const local = await create({
      name: 'local-http',
      transport: 'streamable_http',
      url: 'http://127.0.0.1:3001/mcp',
    });
    expect(local.status).toBe(201);
    const remote = await create({
      name: 'remote-http',
      transport: 'streamable_http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': 'blue' },
      bearer_token: { secret: true },
    });
    expect(remote.status).toBe(201);
    expect(remote.body.bearer_token).toEqual({ secret: true, has_value: false });
  });

  it('keeps secret values in the keychain only: write-only, removed explicitly, never in SQLite or responses', async () => {
    const server = await create({
      name: 'with-secret',
      transport: 'stdio',
      command: 'node server.js',
      env: { API_KEY: { secret: true }, PLAIN: 'x' },
    });
    expect(server.body.env.API_KEY).toEqual({ secret: true, has_value: false });
    const id = server.body.id;

    const unknown = await h.api<ErrorBody>('PUT', `/api/mcp/servers/${id}/secrets`, { PLAIN: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/PLAIN is not a secret value/);

    const set = await h.api<McpServer>('PUT', `/api/mcp/servers/${id}/secrets`, { API_KEY: SECRET });
    expect(set.status).toBe(200);
    expect(set.body.env.API_KEY).toEqual({ secret: true, has_value: true });
    expect(JSON.stringify(set.body)).not.toContain(SECRET);

    // An empty value is an untouched field: the saved one stays.
    const kept = await h.api<McpServer>('PUT', `/api/mcp/servers/${id}/secrets`, { API_KEY: '' });
    expect(kept.status).toBe(200);
    expect(kept.body.env.API_KEY).toEqual({ secret: true, has_value: true });

    // An edit that sends the secret back as a marker keeps the value.
    const edited = await h.api<McpServer>('PATCH', `/api/mcp/servers/${id}`, {
      env: { API_KEY: { secret: true }, PLAIN: 'y' },
    });
    expect(edited.body.env).toEqual({ API_KEY: { secret: true, has_value: true }, PLAIN: 'y' });

    const listed = await h.api('GET', '/api/mcp/servers');
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);

    const removed = await h.api<McpServer>('PUT', `/api/mcp/servers/${id}/secrets`, { API_KEY: null });
    expect(removed.body.env.API_KEY).toEqual({ secret: true, has_value: false });
    await h.api('PUT', `/api/mcp/servers/${id}/secrets`, { API_KEY: SECRET });

    await h.server.stop(); // flushes the database and logs; the folder stays until h.close()
    for (const file of allFiles(h.dataDir)) {
      expect(fs.readFileSync(file).includes(SECRET), `${file} holds the secret`).toBe(false);
    }
    await h.restart();
    expect((await h.api<McpServer>('GET', `/api/mcp/servers/${id}`)).body.env.API_KEY).toEqual({
      secret: true,
      has_value: true,
    });
  });

  it('enables, renames and deletes; a deleted server is gone with its secrets', async () => {
    const { body: servers } = await h.api<McpServerList>('GET', '/api/mcp/servers');
    const target = servers.servers.find((s) => s.name === 'with-secret')!;
    const enabled = await h.api<McpServer>('PATCH', `/api/mcp/servers/${target.id}`, {
      enabled: true,
      name: 'renamed',
    });
    expect(enabled.body).toMatchObject({ enabled: true, name: 'renamed' });
    const taken = await h.api<ErrorBody>('PATCH', `/api/mcp/servers/${target.id}`, { name: 'everything' });
    expect(taken.status).toBe(409);

    expect((await h.api('DELETE', `/api/mcp/servers/${target.id}`)).status).toBe(204);
    expect((await h.api('GET', `/api/mcp/servers/${target.id}`)).status).toBe(404);
    expect(await h.server.core.keychain.get(`mcp:${target.id}:API_KEY`)).toBeNull();
  });

  it('needs the token like every other route', async () => {
    const res = await fetch(`${h.server.url}/api/mcp/servers`);
    expect(res.status).toBe(401);
  });
});

describe('MCP in conversation-only mode', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CAIRN_CONVERSATION_ONLY: '1' } });
  });
  afterAll(async () => h?.close());

  it('has no MCP servers to configure', async () => {
    expect((await h.api<Capabilities>('GET', '/api/capabilities')).body.mcp).toBe(false);
    for (const [method, route] of [
      ['GET', '/api/mcp/servers'],
      ['POST', '/api/mcp/servers'],
      ['POST', '/api/mcp/import'],
    ] as const) {
      const res = await h.api<ErrorBody>(method, route, method === 'POST' ? {} : undefined);
      expect(res.status, route).toBe(403);
      expect(res.body.error.code).toBe('conversation_only');
    }
  });
});
