import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_LOG_LIMITS } from '../../src/application/mcp/mcp-log-relay';
import { formatCommandLine } from '../../src/mcp/command-line';
import type { CairnEvent, McpServer, McpSessionStatus } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { waitFor } from '../tools/tool-context';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PROGRESS_SERVER = path.join(root, 'sidecar/test/mcp/fixtures/progress-server.mjs');

type Of<T extends CairnEvent['type']> = Extract<CairnEvent, { type: T }>;

describe('MCP progress, log messages and list_changed in a session (real sidecar, SDK-built server)', () => {
  let h: Harness;
  let server: McpServer;

  beforeAll(async () => {
    h = await startHarness();
    const res = await h.api<McpServer>('POST', '/api/mcp/servers', {
      name: 'progress',
      transport: 'stdio',
      command: formatCommandLine(process.execPath, [PROGRESS_SERVER]),
      deny_tools: ['hidden'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    server = res.body;
    await h.api('PATCH', `/api/mcp/servers/${server.id}`, { enabled: true });
  });
  afterAll(async () => h?.close());

  const events = async <T extends CairnEvent['type']>(sessionId: string, type: T): Promise<Of<T>[]> =>
    (await h.events(sessionId)).filter((e): e is Of<T> => e.type === type);
  const status = async (sessionId: string) =>
    (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
  const agentName = (s: McpSessionStatus, tool: string) =>
    s.servers[0]!.tools.find((t) => t.name === tool)?.agent_name;
  /** A session whose first turn has started the server; its status. */
  const started = async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'start')).id);
    return { sessionId, s: await status(sessionId) };
  };

  it('puts a call’s progress on its card’s events and the server’s log lines on the session', async () => {
    const { sessionId, s } = await started();
    const work = agentName(s, 'work')!;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: work, input: { steps: 40, with_total: true } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    expect((await h.waitForTurnEnd((await h.startTurn(sessionId, 'work')).id)).status).toBe('completed');

    const call = (await events(sessionId, 'tool.started')).find((e) => e.name === work)!;
    const progress = await events(sessionId, 'tool.progress');
    // Forty came at once: the first is journaled, the rest held back to the last (at most one per 250 ms),
    // which is written as the call ends.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThan(10);
    expect(progress.every((e) => e.tool_call_id === call.tool_call_id && e.turn_id === call.turn_id)).toBe(
      true,
    );
    expect(progress[0]).toMatchObject({ progress: 1, total: 40, message: 'step 1 of 40' });
    expect(progress.at(-1)).toMatchObject({ progress: 40, total: 40, message: 'step 40 of 40' });
    const finished = (await events(sessionId, 'tool.finished')).find(
      (e) => e.tool_call_id === call.tool_call_id,
    )!;
    expect(progress.at(-1)!.seq).toBeLessThan(finished.seq);

    const logs = await events(sessionId, 'mcp.log');
    expect(logs).toEqual([
      expect.objectContaining({ server_id: server.id, level: 'info', data: { working: 40 } }),
    ]);
  });

  it('bounds a flood of log messages, cutting large data, and says how many were left out', async () => {
    const { sessionId, s } = await started();
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: agentName(s, 'flood')!, input: { count: 300, big: true } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'flood')).id);
    await waitFor(async () =>
      (await events(sessionId, 'mcp.log')).some((e) => String(e.data).includes('left out')),
    );
    const logs = await events(sessionId, 'mcp.log');
    const lines = logs.filter((e) => !String(e.data).startsWith('[Cairn:'));
    // In the second or so the flood took, a few passed.
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(3 * MCP_LOG_LIMITS.perSecond);
    expect(lines[0]).toMatchObject({ server_id: server.id, level: 'debug' });
    expect(String(lines[0]!.data)).toMatch(/^\{"blob":"x+… \[Cairn: cut; \d+ characters in all\]$/);
    expect(lines[1]).toMatchObject({ level: 'warning', data: 'line 1' });
    const left = logs
      .map((e) => /\[Cairn: (\d+) log messages from this server left out/.exec(String(e.data)))
      .reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
    expect(lines.length + left).toBe(300);
  });

  it('follows list_changed: the next request has the new tool, not the removed one, filters applied', async () => {
    const { sessionId, s } = await started();
    const change = agentName(s, 'change_tools')!;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: change, input: { add: 'fresh', remove: 'work' } }] },
      { content: [{ type: 'tool_use', name: change, input: { add: 'hidden' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const before = h.model.requests.length;
    const turn = await h.startTurn(sessionId, 'change');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const offered = (i: number) => h.model.requests[before + i]!.body.tools!.map((t) => t.name);
    expect(offered(0).some((n) => n.endsWith('work'))).toBe(true);
    expect(offered(0).some((n) => n.endsWith('fresh'))).toBe(false);
    // Within the same turn, the request after the call has the new list.
    expect(offered(1).some((n) => n.endsWith('fresh'))).toBe(true);
    expect(offered(1).some((n) => n.endsWith('work'))).toBe(false);
    expect(offered(2).some((n) => n.endsWith('hidden'))).toBe(false);

    const after = await status(sessionId);
    expect(after.servers[0]!.tools.map((t) => t.name).sort()).toEqual(['change_tools', 'flood', 'fresh']);
    const counts = (await events(sessionId, 'mcp.server')).map((e) => [e.state, e.tools, e.turn_id === null]);
    expect(counts).toEqual([
      ['connecting', 0, false],
      ['connected', 3, false],
      ['connected', 3, true], // fresh in, work out
      ['connected', 3, true], // hidden in, but denied: not counted
    ]);

    // The next turn starts with the new list too.
    h.model.enqueue({ content: [{ type: 'text', text: 'again' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'again')).id);
    expect(h.model.requests.at(-1)!.body.tools!.some((t) => t.name.endsWith('fresh'))).toBe(true);
  });
});
