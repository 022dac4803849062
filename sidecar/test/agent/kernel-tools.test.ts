import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KernelList, Question, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import {
  HAS_MATPLOTLIB_PYTHON,
  IPYTHON_KERNEL_ENV,
  kernelEvents,
  ofExecution,
  STDLIB_KERNEL_ENV,
  toolResultJson,
  waitForExecutionEnd,
} from '../support/kernel-harness';
import { waitFor } from '../tools/tool-context';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function pendingQuestions(h: Harness, sessionId: string, n: number): Promise<Question[]> {
  let questions: Question[] = [];
  await waitFor(async () => {
    questions = (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body
      .questions;
    return questions.length >= n;
  });
  return questions;
}

describe('the agent with Python kernels', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('keeps state between execute_code calls, lists and resets variables, and journals the executions', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: 'x = 21\nprint("set")' } }] },
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: 'x * 2' } }] },
      { content: [{ type: 'tool_use', name: 'list_variables', input: {} }] },
      { content: [{ type: 'tool_use', name: 'reset_repl', input: {} }] },
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: 'x' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'compute');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    // The model sees the kernel tools with the inputs the issue names.
    const tools = h.model.requests[0]!.body.tools!;
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['execute_code', 'reset_repl', 'list_variables']) expect(byName[name]).toBeDefined();
    const props = (name: string) =>
      Object.keys((byName[name]!.input_schema as { properties: object }).properties);
    expect(props('execute_code')).toEqual(['code', 'kernel', 'timeout', 'is_wait']);
    expect(props('reset_repl')).toEqual(['kernel']);
    expect(props('list_variables')).toEqual(['kernel']);
    expect(byName.execute_code!.description).toMatch(/persist/);
    expect(byName.execute_code!.description).toMatch(/small/);
    expect(byName.execute_code!.description).toMatch(/input\(\)/);

    const first = toolResultJson(h, 1);
    expect(first).toMatchObject({
      success: true,
      stdout: 'set\n',
      stderr: '',
      return_value: null,
      error: null,
    });
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining([
        'success',
        'stdout',
        'stderr',
        'return_value',
        'error',
        'error_details',
        'execution_time_ms',
        'files',
      ]),
    );
    expect(toolResultJson(h, 2)).toMatchObject({ success: true, return_value: '42' });
    const listed = toolResultJson(h, 3) as { variables: { name: string; type: string; repr: string }[] };
    expect(listed.variables).toContainEqual({ name: 'x', type: 'int', repr: '21' });
    expect(JSON.stringify(h.model.requests[4]!.body.messages.at(-1))).toContain('cleared');
    const afterReset = toolResultJson(h, 5) as { success: boolean; error_details: { type: string } };
    expect(afterReset.success).toBe(false);
    expect(afterReset.error_details.type).toBe('NameError');

    // Each execution is on the journal with the turn and the tool call that ran it.
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    const calls = page.body.turns[0]!.tool_calls.filter((c) => c.name === 'execute_code');
    expect(calls.map((c) => c.status)).toEqual(['completed', 'completed', 'failed']);
    const events = await kernelEvents(h, sessionId);
    const starts = events.filter((e) => e.type === 'kernel.execution_started');
    expect(starts.map((e) => [e.turn_id, e.tool_call_id, e.code])).toEqual(
      calls.map((c) => [turn.id, c.id, (c.input as { code: string }).code]),
    );
    expect(events.every((e) => e.turn_id === turn.id)).toBe(true);
    const second = ofExecution(events, starts[1]!.execution_id);
    expect(second.at(-1)).toMatchObject({
      type: 'kernel.result',
      success: true,
      return_value: { text: '42' },
    });
  });

  it('asks before execute_code in "ask" mode: an allowed call runs, a denied one does not', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession({ approval: 'ask' });
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'execute_code',
            input: { code: "open('allowed.txt', 'w').write('yes')" },
          },
          { type: 'tool_use', name: 'execute_code', input: { code: "open('denied.txt', 'w').write('no')" } },
          { type: 'tool_use', name: 'list_variables', input: {} },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'write files from Python');
    const pending = await pendingQuestions(h, sessionId, 2);
    // list_variables has no side effects and did not ask.
    expect(pending.map((q) => [q.kind, q.tool?.name])).toEqual([
      ['approval', 'execute_code'],
      ['approval', 'execute_code'],
    ]);
    expect(pending[0]!.question).toContain("open('allowed.txt', 'w')");
    expect((await kernelEvents(h, sessionId)).filter((e) => e.type === 'kernel.execution_started')).toEqual(
      [],
    );
    expect(fs.existsSync(path.join(h.projectDir, 'allowed.txt'))).toBe(false);

    await h.api('POST', `/api/questions/${pending[0]!.id}/answer`, { answer: 'allow' });
    await h.api('POST', `/api/questions/${pending[1]!.id}/answer`, { answer: 'deny' });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'allowed.txt'), 'utf8')).toBe('yes');
    expect(fs.existsSync(path.join(h.projectDir, 'denied.txt'))).toBe(false);
    const starts = (await kernelEvents(h, sessionId)).filter((e) => e.type === 'kernel.execution_started');
    expect(starts).toHaveLength(1);
  });

  it('cancelling the turn interrupts the running cell; the kernel and its state survive', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'execute_code',
            input: { code: "kept = 7\nimport time\nprint('sleeping', flush=True)\ntime.sleep(120)" },
          },
        ],
      },
      { content: [{ type: 'text', text: 'never reached' }] },
    );
    const turn = await h.startTurn(sessionId, 'sleep');
    await h.waitForEvent(sessionId, (e) => e.type === 'kernel.stream' && e.text.includes('sleeping'));
    const before = (await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels;
    expect(before).toMatchObject([{ name: 'default', state: 'busy' }]);

    const cancelled = await h.api<{ status: string }>('POST', `/api/turns/${turn.id}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    const result = await h.waitForEvent(sessionId, (e) => e.type === 'kernel.result');
    expect(result).toMatchObject({ type: 'kernel.result', success: false, turn_id: turn.id });
    expect(result.type === 'kernel.result' && result.error?.type).toBe('KeyboardInterrupt');

    // The same process still runs, idle, with the variable set before the interrupt.
    const after = (await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels;
    expect(after).toMatchObject([{ name: 'default', state: 'idle', pid: before[0]!.pid }]);
    const vars = await h.api<{ variables: { name: string }[] }>(
      'GET',
      `/api/sessions/${sessionId}/kernels/default/variables`,
    );
    expect(vars.body.variables.map((v) => v.name)).toContain('kept');
  });

  it("shares the kernel with the user: a user cell queued behind the agent's runs next, as the user's", async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    const code =
      "import os, time\nshared = 'from agent'\nprint('agent', flush=True)\nwhile not os.path.exists('go'):\n    time.sleep(0.02)";
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'wait for go');
    await h.waitForEvent(sessionId, (e) => e.type === 'kernel.stream' && e.text.includes('agent'));
    const queued = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
      code: "print('user sees', shared)",
    });
    expect(queued.status).toBe(202);
    fs.writeFileSync(path.join(h.projectDir, 'go'), '');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    await waitForExecutionEnd(h, sessionId, 2);

    const events = await kernelEvents(h, sessionId);
    const starts = events.filter((e) => e.type === 'kernel.execution_started');
    expect(starts.map((e) => [e.turn_id, e.tool_call_id !== null])).toEqual([
      [turn.id, true],
      [null, false],
    ]);
    const userEvents = ofExecution(events, starts[1]!.execution_id);
    expect(userEvents.every((e) => e.turn_id === null)).toBe(true);
    expect(
      userEvents
        .filter((e) => e.type === 'kernel.stream')
        .map((e) => e.type === 'kernel.stream' && e.text)
        .join(''),
    ).toBe('user sees from agent\n');
  });

  it("input() in the agent's code is answered by the user through the API", async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'execute_code', input: { code: "name = input('Name? ')\nname.upper()" } },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'ask my name');
    const request = await h.waitForEvent(sessionId, (e) => e.type === 'kernel.input_request');
    if (request.type !== 'kernel.input_request') throw new Error('unreachable');
    expect(request).toMatchObject({ prompt: 'Name? ', password: false, turn_id: turn.id, kernel: 'default' });
    const answered = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/input`, {
      request_id: request.request_id,
      value: 'ada',
    });
    expect(answered.status).toBe(204);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(toolResultJson(h, 1)).toMatchObject({ success: true, return_value: "'ADA'" });
  });

  it('caps long output for the model and keeps all of it in a file', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'execute_code',
            input: { code: "print('start-' + 'x' * 60000 + '-end')\nraise ValueError('late')" },
          },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'print a lot')).id);
    const result = toolResultJson(h, 1) as {
      success: boolean;
      stdout: string;
      error: string;
      error_details: { type: string; line: number };
    };
    // The structure arrives whole: the error after the long output is not cut off.
    expect(result.success).toBe(false);
    expect(result.error_details).toMatchObject({ type: 'ValueError', line: 2 });
    expect(result.error).toContain('late');
    expect(result.stdout.length).toBeLessThan(8_000);
    expect(result.stdout.startsWith('start-')).toBe(true);
    expect(result.stdout.trimEnd().endsWith('-end')).toBe(true);
    const file = /the whole stdout is in (\S+?);/.exec(result.stdout)?.[1];
    expect(file).toBeDefined();
    expect(fs.readFileSync(file!, 'utf8')).toBe(`start-${'x'.repeat(60000)}-end\n`);
  });

  it.runIf(HAS_MATPLOTLIB_PYTHON)(
    'a matplotlib figure becomes a PNG file the tool names and the API serves',
    async () => {
      h = await startHarness({ env: IPYTHON_KERNEL_ENV });
      const { sessionId } = await h.newSession();
      h.model.enqueue(
        {
          content: [
            {
              type: 'tool_use',
              name: 'execute_code',
              input: {
                code: "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.title('squares')",
              },
            },
          ],
        },
        { content: [{ type: 'text', text: 'plotted' }] },
      );
      const turn = await h.startTurn(sessionId, 'plot squares');
      expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
      const result = toolResultJson(h, 1) as {
        success: boolean;
        files: { id: string; path: string; mime: string }[];
      };
      expect(result.success).toBe(true);
      const pngs = result.files.filter((f) => f.mime === 'image/png');
      expect(pngs).toHaveLength(1);
      const bytes = fs.readFileSync(pngs[0]!.path);
      expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

      // The journal names the image by id, never by its path; the API serves it by that id, with the token.
      const display = (await kernelEvents(h, sessionId)).find((e) => e.type === 'kernel.display');
      if (display?.type !== 'kernel.display') throw new Error('no kernel.display event');
      expect(display.turn_id).toBe(turn.id);
      expect(JSON.stringify(display)).not.toContain(pngs[0]!.path);
      const artifact = display.artifacts.find((a) => a.mime === 'image/png')!;
      // The tool's result names the same file by that id too, so its card can fetch it.
      expect(pngs[0]!.id).toBe(artifact.id);
      const res = await fetch(`${h.server.url}/api/artifacts/${artifact.id}`, {
        headers: { authorization: `Bearer ${h.server.token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await fetch(`${h.server.url}/api/artifacts/${artifact.id}`)).status).toBe(401);
    },
  );
});
