import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger';
import type { McpToolDef } from '../../src/mcp/mcp-connection';
import { RELIST_LIMITS, ToolRelister } from '../../src/mcp/tool-relist';
import { connectionsClosedAfterEach, nodeServer, waitFor } from './support/mcp-servers';

const FLOOD_SERVER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/relist-flood-server.mjs',
);
const connect = connectionsClosedAfterEach();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('list_changed from a server that never stops announcing', () => {
  it('is listed again at most once an interval, and a call that set it off answers after one round', async () => {
    const conn = await connect(nodeServer(FLOOD_SERVER, ['after']), {});
    let changes = 0;
    conn.onToolsChange(() => changes++);
    const began = Date.now();
    expect((await conn.callTool('poke', {}, {})).text).toBe('poked');
    await conn.toolsSettled();
    await waitFor(() => changes >= 3, 30_000, 'three re-lists');
    const elapsed = Date.now() - began;
    // Three re-lists are spaced by two intervals at least (unspaced, this server made thousands a second).
    expect(elapsed).toBeGreaterThanOrEqual(2 * RELIST_LIMITS.minIntervalMs - 20);
    const lists = Number((await conn.callTool('lists', {}, {})).text);
    expect(lists).toBeLessThanOrEqual(Math.floor((Date.now() - began) / RELIST_LIMITS.minIntervalMs) + 2);
  });

  it('lets a waiting call go after one round when the server announces before every answer, or when cancelled', async () => {
    const conn = await connect(nodeServer(FLOOD_SERVER, ['before']), {});
    await conn.callTool('poke', {}, {});
    // Without the one-round rule this never resolved: each list brought one more announcement.
    await conn.toolsSettled();
    await conn.callTool('poke', {}, {});
    const cancelled = new AbortController();
    cancelled.abort();
    await conn.toolsSettled(cancelled.signal);
  });

  it('stops listing again after its limit per connection, with one warning', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [FLOOD_SERVER, 'after'] });
    const client = new Client({ name: 'cairn-test', version: '1' }, { capabilities: {} });
    clients.push(client);
    await client.connect(transport);
    // As a connection does at connect: the server announces from its second list on.
    await client.listTools();
    let tools: McpToolDef[] = [];
    const warnings: string[] = [];
    const log = { ...silentLogger, warn: (message: string) => warnings.push(message) };
    const limits = { minIntervalMs: 1, perConnection: 5, settleMs: 5_000 };
    const server = nodeServer(FLOOD_SERVER, ['after']);
    const relister = new ToolRelister(
      client,
      server,
      log as typeof silentLogger,
      {
        connected: () => true,
        tools: () => tools,
        changed: (next) => {
          tools = next;
        },
        describe: String,
      },
      limits,
    );
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => relister.request());
    relister.request();
    await waitFor(() => warnings.length > 0, 30_000, 'the warning');
    await relister.settled();
    const lists = Number(
      ((await client.callTool({ name: 'lists', arguments: {} })).content as { text: string }[])[0]?.text,
    );
    expect(lists).toBe(1 + limits.perConnection);
    expect(warnings).toEqual([
      'mcp server announced tool changes too often; its list is no longer read again',
    ]);
    expect(tools.map((t) => t.name)).toContain(`v${1 + limits.perConnection}`);
  });
});
