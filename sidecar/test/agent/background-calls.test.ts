import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, ToolCall, ToolCallOutput, ToolRuntimeInfo } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { lastToolResults, lastUserTexts, receiptOf } from '../support/tool-results';

/** Background calls through the real SDK: receipts, ToolControl, pieces, notices, cancel. */
describe('background calls', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const finished = (sessionId: string, callId: string) =>
    h.waitForEvent(sessionId, (e) => e.type === 'tool.finished' && e.tool_call_id === callId);

  it('returns a receipt at once, keeps working, is polled to completion with ToolControl, and is noticed', async () => {
    const { sessionId } = await h.newSession();
    fs.writeFileSync(path.join(h.projectDir, 'go'), '');
    let callId = '';
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            // Waits for a file the test writes, so the call is certainly still running at the receipt.
            input: {
              command: 'echo started; while [ -e go ]; do sleep 0.05; done; echo finished; exit 3',
              is_wait: false,
            },
          },
        ],
      },
      {
        kind: 'handler',
        handle: (req) => {
          callId = receiptOf(req).call_id;
          return { content: [{ type: 'tool_use', name: 'Read', input: { path: 'go' } }] };
        },
      },
      {
        kind: 'handler',
        handle: async () => {
          // The turn goes on while the call runs; then it ends (the file goes) before the next request.
          fs.rmSync(path.join(h.projectDir, 'go'));
          await finished(sessionId, callId);
          return {
            content: [
              { type: 'tool_use', name: 'ToolControl', input: { action: 'status', call_id: callId } },
            ],
          };
        },
      },
      {
        kind: 'handler',
        handle: () => ({
          content: [{ type: 'tool_use', name: 'ToolControl', input: { action: 'output', call_id: callId } }],
        }),
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'run it in the background');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const receipt = receiptOf(h.model.requests[1]!);
    expect(Object.keys(receipt).sort()).toEqual(['call_id', 'result_dir', 'status']);
    expect(receipt.status).toBe('running');
    expect(receipt.result_dir).toBe(path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', callId));
    // tool.started's id is the receipt's.
    const events = await h.events(sessionId);
    const started = events.find((e) => e.type === 'tool.started' && e.name === 'Bash');
    expect(started).toMatchObject({ tool_call_id: callId, background: true, parent_tool_call_id: null });

    // The call ended while the turn ran: the request after it carries one line saying so.
    const notices = lastUserTexts(h.model.requests[3]!);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(callId);
    expect(notices[0]).toMatch(/ended: failed \(exit code 3\)/);
    expect(notices[0]).toContain('ToolControl');
    expect(notices[0]!.split('\n')).toHaveLength(1);

    const status = JSON.parse(lastToolResults(h.model.requests[3]!)[0]!.content) as Record<string, unknown>;
    expect(status).toMatchObject({ call_id: callId, status: 'failed', exit_code: 3, background: true });
    expect(typeof status.duration_ms).toBe('number');
    const output = lastToolResults(h.model.requests[4]!)[0]!.content;
    expect(output).toContain('started\n');
    expect(output).toContain('finished\n');

    // Its folder: status.json with status, timings, exit; result.txt; the output as pieces.
    const dir = receipt.result_dir;
    const statusFile = JSON.parse(fs.readFileSync(path.join(dir, 'status.json'), 'utf8')) as ToolCall;
    expect(statusFile).toMatchObject({ status: 'failed', exit_code: 3, background: true });
    expect(statusFile.finished_at).not.toBeNull();
    expect(fs.readFileSync(path.join(dir, 'result.txt'), 'utf8')).toContain('finished');
    expect(fs.readdirSync(dir)).toContain('0000.txt');
  });

  it('keeps the newest 20 pieces, read by number, saying how many are missing', async () => {
    const { sessionId } = await h.newSession();
    // 25 pieces of 16 KiB at once: 0000…0024, of which 0005…0024 stay.
    const command = "head -c 409600 /dev/zero | tr '\\0' x";
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command, is_wait: false } }] },
      { content: [{ type: 'text', text: 'started' }] },
    );
    const turn = await h.startTurn(sessionId, 'lots of output');
    await h.waitForTurnEnd(turn.id);
    const { call_id: callId, result_dir: dir } = receiptOf(h.model.requests.at(-1)!);
    await finished(sessionId, callId);
    const names = fs.readdirSync(dir).filter((n) => /^\d+\.txt$/.test(n));
    expect(names.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `${String(i + 5).padStart(4, '0')}.txt`),
    );

    const after = await h.api<ToolCallOutput>('GET', `/api/tool-calls/${callId}/output?after=2`);
    expect(after.status).toBe(200);
    expect(after.body.missing).toBe(2);
    expect(after.body.pieces[0]!.number).toBe(5);
    expect(after.body.running).toBe(false);
    const newest = await h.api<ToolCallOutput>('GET', `/api/tool-calls/${callId}/output`);
    expect(newest.body.next_after).toBe(24);
    expect(newest.body.pieces.at(-1)!.number).toBe(24);
    const rest = await h.api<ToolCallOutput>('GET', `/api/tool-calls/${callId}/output?after=24`);
    expect(rest.body.pieces).toEqual([]);
    expect(rest.body.next_after).toBe(24);
  });

  it('journals the first 2 MiB of output and keeps the rest only in its pieces', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: "head -c 3145728 /dev/zero | tr '\\0' y; echo END", is_wait: false },
          },
        ],
      },
      { content: [{ type: 'text', text: 'started' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'flood')).id);
    const { call_id: callId } = receiptOf(h.model.requests.at(-1)!);
    await finished(sessionId, callId);
    const journaled = (await h.events(sessionId))
      .filter((e) => e.type === 'tool.output' && e.tool_call_id === callId)
      .map((e) => (e as { text: string }).text)
      .join('');
    expect(journaled.length).toBeLessThan(2 * 1024 * 1024 + 200_000);
    expect(journaled).toContain("further output goes only to the call's output pieces");
    expect(journaled).not.toContain('END');
    const newest = await h.api<ToolCallOutput>('GET', `/api/tool-calls/${callId}/output`);
    expect(newest.body.pieces.map((p) => p.text).join('')).toMatch(/yEND\n$/);
  });

  it('outlives a cancelled turn, and ToolControl cancel stops its whole process tree', async () => {
    const { sessionId } = await h.newSession();
    const pidFile = path.join(h.projectDir, 'child.pid');
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: `sleep 300 & echo $! > ${pidFile}; wait`, is_wait: false },
          },
        ],
      },
      // The turn waits on a stream that never ends, and is cancelled.
      { content: [{ type: 'text', text: 'thinking' }], hang: true },
    );
    const base = h.model.requests.length;
    const turn = await h.startTurn(sessionId, 'start and wait');
    await h.model.waitForRequests(base + 2);
    const { call_id: callId } = receiptOf(h.model.requests[base + 1]!);
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('cancelled');
    await waitUntil(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '');
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(isAlive(childPid)).toBe(true);
    const runtime = await h.api<ToolRuntimeInfo>('GET', `/api/sessions/${sessionId}/tool-runtime`);
    expect(runtime.body.calls.find((c) => c.id === callId)?.status).toBe('running');

    // The next turn cancels it through ToolControl.
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'ToolControl', input: { action: 'cancel', call_id: callId } }] },
      { content: [{ type: 'text', text: 'stopped' }] },
    );
    const next = await h.startTurn(sessionId, 'stop it');
    await h.waitForTurnEnd(next.id);
    const answer = JSON.parse(lastToolResults(h.model.requests.at(-1)!)[0]!.content) as { status: string };
    expect(answer.status).toBe('cancelled');
    expect(isAlive(childPid)).toBe(false);
    const call = await h.api<ToolCall & { result: string }>('GET', `/api/tool-calls/${callId}`);
    expect(call.body.status).toBe('cancelled');
    expect(call.body.result).toContain('cancelled');
  });

  it('is stopped with its session, and marked interrupted when Cairn stops', async () => {
    const start = async (sessionId: string, pidFile: string) => {
      h.model.enqueue(
        {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: `sleep 300 & echo $! > ${pidFile}; wait`, is_wait: false },
            },
          ],
        },
        { content: [{ type: 'text', text: 'started' }] },
      );
      await h.waitForTurnEnd((await h.startTurn(sessionId, 'start')).id);
      await waitUntil(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '');
      return {
        callId: receiptOf(h.model.requests.at(-1)!).call_id,
        pid: Number(fs.readFileSync(pidFile, 'utf8')),
      };
    };
    const deleted = await h.newSession();
    const one = await start(deleted.sessionId, path.join(h.projectDir, 'one.pid'));
    const kept = await h.newSession();
    const two = await start(kept.sessionId, path.join(h.projectDir, 'two.pid'));
    expect((await h.api('DELETE', `/api/sessions/${deleted.sessionId}`)).status).toBe(204);
    expect(isAlive(one.pid)).toBe(false);
    expect(isAlive(two.pid)).toBe(true);

    await h.restart();
    expect(isAlive(two.pid)).toBe(false);
    const call = await h.api<ToolCall & { result: string }>('GET', `/api/tool-calls/${two.callId}`);
    expect(call.body.status).toBe('interrupted');
    expect(call.body.result).toContain('Cairn stopped while this call ran');
  });

  it('lists running and recent background calls, and guides script writing by topic', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'Bash', input: { command: 'sleep 300', is_wait: false } },
          { type: 'tool_use', name: 'Bash', input: { command: 'true', is_wait: false } },
        ],
      },
      {
        kind: 'handler',
        handle: async (req) => {
          const [, quick] = lastToolResults(req).map((r) => JSON.parse(r.content) as { call_id: string });
          await finished(sessionId, quick!.call_id);
          return {
            content: [
              { type: 'tool_use', name: 'ToolControl', input: { action: 'list' } },
              { type: 'tool_use', name: 'ToolControl', input: { action: 'guide', topic: 'python' } },
              { type: 'tool_use', name: 'ToolControl', input: { action: 'guide', topic: 'nope' } },
              { type: 'tool_use', name: 'ToolControl', input: { action: 'status' } },
            ],
          };
        },
      },
      { content: [{ type: 'text', text: 'listed' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'list')).id);
    const [list, python, unknown, noId] = lastToolResults(h.model.requests.at(-1)!);
    const listed = JSON.parse(list!.content) as { background_calls: { status: string }[]; loaded_tools: [] };
    // The running one first, then the ended one.
    expect(listed.background_calls.map((c) => c.status)).toEqual(['running', 'completed']);
    expect(listed.loaded_tools).toEqual([]);
    expect(python!.content).toContain('cairn_tools.call(');
    expect(unknown!.content).toContain('No guide on "nope"');
    expect(noId).toMatchObject({ is_error: true });
    expect(noId!.content).toContain('needs "call_id"');
    for (const call of (await h.api<ToolRuntimeInfo>('GET', `/api/sessions/${sessionId}/tool-runtime`)).body
      .calls) {
      if (call.status === 'running') await h.api('POST', `/api/tool-calls/${call.id}/cancel`);
    }
  });

  it('a background call cancelled while it waits for approval closes its question and says so', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 300', is_wait: false } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const turn = await h.startTurn(sessionId, 'ask first');
    const asked = (await h.waitForEvent(sessionId, (e) => e.type === 'question.required')) as Extract<
      CairnEvent,
      { type: 'question.required' }
    >;
    const callId = asked.question.tool_call_id!;
    expect((await h.api<ToolCall>('POST', `/api/tool-calls/${callId}/cancel`)).body.status).toBe('cancelled');
    const closed = await h.waitForEvent(
      sessionId,
      (e) => e.type === 'question.closed' && e.question_id === asked.question.id,
    );
    expect(closed).toBeTruthy();
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    // The model is told it was cancelled, not handed a receipt of a call that never ran.
    const [result] = lastToolResults(h.model.requests.at(-1)!);
    expect(result).toMatchObject({ is_error: true });
    expect(result!.content).toContain('cancelled');
    const pending = await h.api<{ questions: unknown[] }>('GET', `/api/sessions/${sessionId}/questions`);
    expect(pending.body.questions).toEqual([]);
  });

  it('refuses is_wait false for a tool that answers at once, and a wrong is_wait', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'Read', input: { path: 'x', is_wait: false } },
          { type: 'tool_use', name: 'Bash', input: { command: 'true', is_wait: 'no' } },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const turn = await h.startTurn(sessionId, 'bad');
    await h.waitForTurnEnd(turn.id);
    const [read, bash] = lastToolResults(h.model.requests.at(-1)!);
    expect(read).toMatchObject({ is_error: true });
    expect(read!.content).toContain('cannot run in the background');
    expect(bash!.content).toContain('"is_wait" must be true or false');
  });

  it('cancels a running background call through the API, and lists it', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 300', is_wait: false } }] },
      { content: [{ type: 'text', text: 'started' }] },
    );
    const turn = await h.startTurn(sessionId, 'start');
    await h.waitForTurnEnd(turn.id);
    const { call_id: callId } = receiptOf(h.model.requests.at(-1)!);
    const listed = await h.api<ToolRuntimeInfo>('GET', `/api/sessions/${sessionId}/tool-runtime`);
    expect(listed.body.calls.map((c) => [c.id, c.status, c.background])).toEqual([[callId, 'running', true]]);
    const cancelled = await h.api<ToolCall>('POST', `/api/tool-calls/${callId}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    const again = await h.api<ToolCall>('POST', `/api/tool-calls/${callId}/cancel`);
    expect(again.body.status).toBe('cancelled');
    expect((await h.api('POST', '/api/tool-calls/tc_nope/cancel')).status).toBe(404);
    expect((await h.api('GET', `/api/sessions/nope/tool-runtime`)).status).toBe(404);
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error('condition not met');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
