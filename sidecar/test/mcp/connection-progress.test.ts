import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROGRESS_TIMEOUT_FACTOR } from '../../src/mcp/call-deadline';
import { McpCallError, type McpProgress } from '../../src/mcp/mcp-connection';
import type { McpLogLevel } from '../../src/protocol';
import { connectionsClosedAfterEach, nodeServer, waitFor } from './support/mcp-servers';

const PROGRESS_SERVER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/progress-server.mjs',
);
const connect = connectionsClosedAfterEach();
const fixture = (over: Parameters<typeof nodeServer>[2] = {}) => nodeServer(PROGRESS_SERVER, [], over);

describe('McpConnection: progress, log messages and list_changed (an SDK-built server over stdio)', () => {
  it('hands on each progress notification of a call, with total and message when the server gives them', async () => {
    const conn = await connect(fixture(), {});
    const seen: McpProgress[] = [];
    // No pause between them: the last comes in the same read as the answer, and is not lost.
    const res = await conn.callTool(
      'work',
      { steps: 3, with_total: true },
      { onProgress: (p) => seen.push(p) },
    );
    expect(res.text).toBe('done');
    expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i} of 3` })));

    seen.length = 0;
    await conn.callTool('work', { steps: 2 }, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: null, message: null },
      { progress: 2, total: null, message: null },
    ]);
  });

  it('restarts the timeout at each progress notification, up to a limit in all', async () => {
    const conn = await connect(fixture({ toolTimeoutMs: 300 }), {});
    // 16 steps 25 ms apart: longer than the timeout, but never silent for nearly as long (a loaded machine
    // would have to stall the server 12 times a step).
    expect((await conn.callTool('work', { steps: 16, every_ms: 25 }, {})).text).toBe('done');
    // Reporting every 25 ms for longer than PROGRESS_TIMEOUT_FACTOR × 300 ms is too long all the same.
    const steps = Math.ceil((PROGRESS_TIMEOUT_FACTOR * 300) / 25) + 20;
    const err = await conn.callTool('work', { steps, every_ms: 25 }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(
      /did not finish within .* \(its progress reports extend its 0\.3 s limit, up to 10 times\); the call was cancelled/,
    );
  });

  it('hands on the server’s log messages with their level and data', async () => {
    const conn = await connect(fixture(), {});
    const logs: [McpLogLevel, unknown][] = [];
    conn.onLog((level, data) => logs.push([level, data]));
    await conn.callTool('work', { steps: 1 }, {});
    await conn.callTool('flood', { count: 2 }, {});
    await waitFor(() => logs.length === 3, 10_000, 'three log messages');
    expect(logs).toEqual([
      ['info', { working: 1 }],
      ['debug', 'line 0'],
      ['warning', 'line 1'],
    ]);
  });

  it('lists the tools again on list_changed, with the allow/deny lists applied, before the call answers', async () => {
    const conn = await connect(fixture({ denyTools: ['hidden'] }), {});
    const changes: string[][] = [];
    conn.onToolsChange((tools) => changes.push(tools.map((t) => t.name)));
    expect(conn.tools.map((t) => t.name).sort()).toEqual(['change_tools', 'flood', 'work']);

    await conn.callTool('change_tools', { add: 'fresh', remove: 'work' }, {});
    await conn.toolsSettled();
    expect(conn.tools.map((t) => t.name).sort()).toEqual(['change_tools', 'flood', 'fresh']);
    expect(changes.at(-1)?.sort()).toEqual(['change_tools', 'flood', 'fresh']);
    expect((await conn.callTool('fresh', {}, {})).text).toBe('added');
    await expect(conn.callTool('work', { steps: 1 }, {})).rejects.toThrow(/has no tool named "work"/);

    await conn.callTool('change_tools', { add: 'hidden' }, {});
    await conn.toolsSettled();
    expect(conn.tools.find((t) => t.name === 'hidden')?.allowed).toBe(false);
    await expect(conn.callTool('hidden', {}, {})).rejects.toThrow(/not allowed/);
  });
});
