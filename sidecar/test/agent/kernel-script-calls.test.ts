import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelInfo, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { lastToolResults } from '../support/tool-results';

/** An agent's kernel cell calls Cairn's tools with cairn_tools; a user's own cell holds no token. */
describe('kernel cells that call tools', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CAIRN_KERNEL_WARM: '0' } });
  });
  afterAll(async () => h?.close());

  it('an execute_code cell writes a file through Write, as a child of its call', async () => {
    const { sessionId } = await h.newSession();
    const code = [
      'import cairn_tools',
      'reply = cairn_tools.call("Write", {"path": "from-kernel.txt", "content": "written by a cell"})',
      '(reply.status, reply.is_error)',
    ].join('\n');
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'kernel writes');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'from-kernel.txt'), 'utf8')).toBe('written by a cell');
    expect(lastToolResults(h.model.requests.at(-1)!)[0]!.content).toContain("('completed', False)");
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const calls = page.body.turns[0]!.tool_calls;
    const cell = calls.find((c) => c.name === 'execute_code')!;
    expect(calls.find((c) => c.name === 'Write')?.parent_tool_call_id).toBe(cell.id);

    // A cell cannot wait on its own kernel (it runs one cell at a time); another kernel is fine.
    const reentry = [
      'import cairn_tools',
      'own = cairn_tools.call("list_variables", {})',
      'other = cairn_tools.call("execute_code", {"code": "40 + 2", "kernel": "worker"})',
      '(own.is_error, "wait for itself" in own.content, other.is_error, "42" in other.content)',
    ].join('\n');
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: reentry } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'reentry')).id);
    expect(lastToolResults(h.model.requests.at(-1)!)[0]!.content).toContain('(True, True, False, True)');

    // The user's own cell in the same kernel: the endpoint is there, no token.
    const run = await h.api<KernelInfo>('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
      code: 'import os\n(os.environ.get("CAIRN_TOOL_ENDPOINT", "")[:5], os.environ.get("CAIRN_TOOL_TOKEN"))',
    });
    expect(run.status).toBe(202);
    const result = await h.waitForEvent(sessionId, (e) => e.type === 'kernel.result' && e.turn_id === null);
    // On POSIX the endpoint is the private Unix socket.
    expect(JSON.stringify(result)).toContain(
      process.platform === 'win32' ? "('http:', None)" : "('unix:', None)",
    );
  });
});
