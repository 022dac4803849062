import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CODE_ERROR } from '../../src/agent/code-mode/code-block';
import type { Question } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { STDLIB_KERNEL_ENV } from '../support/kernel-harness';
import type { RecordedRequest, ScriptedReply } from '../support/model-server';
import { waitFor } from '../tools/tool-context';

const MAX_STEPS = 4;

/** A reply that stopped at `</code>`, as the API reports a hit stop sequence. */
const tagged = (reasoning: string, code: string): ScriptedReply => ({
  content: [{ type: 'text', text: `${reasoning}\n<code>\n${code}\n` }],
  stop_reason: 'stop_sequence',
  stop_sequence: '</code>',
});
const text = (t: string): ScriptedReply => ({ content: [{ type: 'text', text: t }] });

/** The text of the last user message a request carries (the observation of the step before). */
function lastUserText(request: RecordedRequest): string {
  const last = request.body.messages.at(-1)!;
  const content = last.content as string | { type: string; text?: string }[];
  return typeof content === 'string' ? content : content.map((b) => b.text ?? '').join('');
}

describe('code mode turns', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { ...STDLIB_KERNEL_ENV, CAIRN_CODE_MAX_STEPS: String(MAX_STEPS) } });
  });
  afterAll(async () => h?.close());

  async function codeSession(extra: Record<string, unknown> = {}): Promise<string> {
    const { sessionId } = await h.newSession(extra);
    h.server.core.store.sessions.update(sessionId, { mode: 'code' });
    return sessionId;
  }

  async function run(sessionId: string, replies: ScriptedReply[], prompt = 'task') {
    const before = h.model.requests.length;
    h.model.enqueue(...replies);
    const turn = await h.startTurn(sessionId, prompt);
    const ended = await h.waitForTurnEnd(turn.id);
    return { turn: ended, requests: h.model.requests.slice(before) };
  }

  it('runs tagged code with state carried between steps; requests carry no tools and stop at </code>', async () => {
    const sessionId = await codeSession();
    const { turn, requests } = await run(sessionId, [
      tagged('First a variable.', 'x = 41\nprint("set", x)'),
      tagged('Now the answer.', 'final_answer(x + 1)'),
    ]);
    expect(turn.status).toBe('completed');
    expect(turn.answer).toBe('42');
    expect(requests).toHaveLength(2);
    for (const r of requests) {
      expect(r.body.tools).toBeUndefined();
      expect(r.body.stop_sequences).toEqual(['</code>']);
    }
    const system = JSON.stringify(requests[0]!.body.system);
    expect(system).toContain('def final_answer(answer)');
    expect(system).toContain('def Read(');
    expect(system).not.toContain('def execute_code(');
    expect(lastUserText(requests[1]!)).toContain('set 41');
    // The answer is the assistant's last message; the kernel panel shows the model's code as its cell.
    expect(h.server.core.store.messages.last(sessionId)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: '42' }],
    });
    const events = await h.events(sessionId);
    const cells = events.flatMap((e) => (e.type === 'kernel.execution_started' ? [e] : []));
    expect(cells.filter((c) => c.tool_call_id !== null).map((c) => c.code)).toEqual([
      'x = 41\nprint("set", x)',
      'final_answer(x + 1)',
    ]);
  });

  it('tells the next observation of a background call that ended meanwhile', async () => {
    const sessionId = await codeSession();
    // The call ends only once the next step lets it, and that step waits for its end: no timing involved.
    const started =
      'receipt = Bash(command="while [ ! -f go.txt ]; do sleep 0.05; done; echo in-background", is_wait=False)\n' +
      'print(receipt["call_id"])';
    const waited = [
      'import time, cairn_tools',
      'open("go.txt", "w").close()',
      'while cairn_tools.status(receipt["call_id"]).content.find("running") >= 0:',
      '    time.sleep(0.05)',
      'print("waited")',
    ].join('\n');
    const { turn, requests } = await run(sessionId, [
      tagged('Start it.', started),
      tagged('Wait for it.', waited),
      tagged('Done.', 'final_answer("ok")'),
    ]);
    expect(turn.status).toBe('completed');
    expect(lastUserText(requests[2]!)).toContain('waited');
    expect(lastUserText(requests[2]!)).toMatch(/\[Cairn\] Background call \S+ \(Bash\) ended: completed/);
  });

  it('refuses a read-only session at once: its code could not run', async () => {
    const sessionId = await codeSession({ approval: 'read_only' });
    const before = h.model.requests.length;
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'try')).id);
    expect(turn.status).toBe('failed');
    expect(turn.error).toMatchObject({ code: 'bad_request' });
    expect(turn.error!.message).toContain('this session is read-only');
    expect(h.model.requests.length).toBe(before);
  });

  it('reads a reply cut by the output limit together with its continuation', async () => {
    const sessionId = await codeSession();
    const { turn, requests } = await run(sessionId, [
      { content: [{ type: 'text', text: 'Two parts.\n<code>\nx = 20\n' }], stop_reason: 'max_tokens' },
      // The continuation goes on inside the block the first part opened.
      {
        content: [{ type: 'text', text: 'final_answer(x * 2 + 2)\n' }],
        stop_reason: 'stop_sequence',
        stop_sequence: '</code>',
      },
    ]);
    expect(requests).toHaveLength(2);
    expect(turn.status).toBe('completed');
    expect(turn.answer).toBe('42');
  });

  it('takes a fence, then bare code', async () => {
    const sessionId = await codeSession();
    const { turn, requests } = await run(sessionId, [
      text('Let me compute.\n```python\nprint(6 * 7)\n```'),
      text('final_answer("bare")'),
    ]);
    expect(lastUserText(requests[1]!)).toContain('42');
    expect(turn.answer).toBe('bare');
  });

  it('answers unparseable text with the expected form, then succeeds', async () => {
    const sessionId = await codeSession();
    const { turn, requests } = await run(sessionId, [
      text('I think the answer is obvious, no code needed.'),
      tagged('Fine.', 'final_answer("ok")'),
    ]);
    expect(lastUserText(requests[1]!)).toBe(NO_CODE_ERROR);
    expect(turn.status).toBe('completed');
    expect(turn.answer).toBe('ok');
  });

  it('calls a tool as a function, with approval asked for the cell in ask mode', async () => {
    const sessionId = await codeSession({ approval: 'ask' });
    fs.writeFileSync(path.join(h.projectDir, 'notes.txt'), 'the secret is 7\n');
    h.model.enqueue(
      tagged('Read the notes.', 'notes = Read(path="notes.txt")\nprint(notes)'),
      tagged('Done.', 'final_answer("7")'),
    );
    const before = h.model.requests.length;
    const started = await h.startTurn(sessionId, 'read notes');
    const answered = new Set<string>();
    const answerAll = async () => {
      const { questions } = (
        await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)
      ).body;
      for (const q of questions) {
        if (answered.has(q.id)) continue;
        answered.add(q.id);
        await h.api('POST', `/api/questions/${q.id}/answer`, { answer: 'allow' });
      }
    };
    await waitFor(async () => {
      await answerAll();
      return answered.size >= 1;
    });
    // Keep answering (the cell, then maybe per call) until the turn ends.
    let turn = h.server.core.store.turns.get(started.id)!;
    await waitFor(async () => {
      await answerAll();
      turn = h.server.core.store.turns.get(started.id)!;
      return turn.status !== 'running';
    });
    expect(turn.status).toBe('completed');
    expect(answered.size).toBeGreaterThanOrEqual(1);
    expect(lastUserText(h.model.requests[before + 1]!)).toContain('the secret is 7');
    expect(turn.answer).toBe('7');
  });

  /**
   * Answers a session's approvals one at a time, in the order they are asked, with the next of `answers`;
   * returns each question as it was asked. The next one is only awaited after the previous one is answered,
   * since the Bash call inside the cell cannot ask before the cell runs.
   */
  async function answerInOrder(sessionId: string, answers: string[]): Promise<Question[]> {
    const asked: Question[] = [];
    for (const answer of answers) {
      let next: Question | undefined;
      await waitFor(async () => {
        const { questions } = (
          await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)
        ).body;
        next = questions.find((q) => q.status === 'pending' && !asked.some((a) => a.id === q.id));
        return next !== undefined;
      });
      asked.push(next!);
      const answered = await h.api('POST', `/api/questions/${next!.id}/answer`, { answer });
      expect(answered.status).toBeLessThan(300);
    }
    return asked;
  }

  it('asks for the cell, then for a side-effecting tool function inside it; an allowed call runs', async () => {
    const sessionId = await codeSession({ approval: 'ask' });
    const command = 'echo from-code > made.txt';
    h.model.enqueue(
      tagged(
        'Write the file with Bash, then read it back.',
        `Bash(command=${JSON.stringify(command)})
final_answer(open("made.txt").read().strip())`,
      ),
    );
    const started = await h.startTurn(sessionId, 'make a file');
    const asked = await answerInOrder(sessionId, ['allow', 'allow']);
    const turn = await h.waitForTurnEnd(started.id);
    expect(asked.map((q) => [q.kind, q.tool?.name])).toEqual([
      ['approval', 'execute_code'],
      ['approval', 'Bash'],
    ]);
    expect(asked[0]!.tool?.input).toMatchObject({ code: expect.stringContaining('Bash(command=') });
    expect(asked[1]!.tool?.input).toMatchObject({ command });
    expect(fs.readFileSync(path.join(h.projectDir, 'made.txt'), 'utf8').trim()).toBe('from-code');
    expect(turn.status).toBe('completed');
    expect(turn.answer).toBe('from-code');
  });

  it('a denied tool function raises ToolCallError in the code, and its side effect does not happen', async () => {
    const sessionId = await codeSession({ approval: 'ask' });
    h.model.enqueue(
      tagged(
        'Try to write the file.',
        [
          'try:',
          '    Bash(command="echo denied > refused.txt")',
          '    final_answer("ran")',
          'except ToolCallError as e:',
          '    final_answer("refused:" + e.tool)',
        ].join('\n'),
      ),
    );
    const started = await h.startTurn(sessionId, 'make a file');
    const asked = await answerInOrder(sessionId, ['allow', 'deny']);
    const turn = await h.waitForTurnEnd(started.id);
    expect(asked.map((q) => q.tool?.name)).toEqual(['execute_code', 'Bash']);
    expect(turn.status).toBe('completed');
    expect(turn.answer).toBe('refused:Bash');
    expect(fs.existsSync(path.join(h.projectDir, 'refused.txt'))).toBe(false);
  });

  it('ends the turn from final_answer inside try/except Exception, and repairs an assignment', async () => {
    const sessionId = await codeSession();
    const first = await run(sessionId, [
      tagged('Guarded.', 'try:\n    final_answer("caught?")\nexcept Exception:\n    pass\nprint("after")'),
    ]);
    expect(first.turn.status).toBe('completed');
    expect(first.turn.answer).toBe('caught?');
    const second = await run(sessionId, [tagged('Assign.', 'final_answer = "assigned"')]);
    expect(second.turn.answer).toBe('assigned');
  });

  it('cuts a long printed output in the middle, and keeps printed output before an error', async () => {
    const sessionId = await codeSession();
    const { requests } = await run(sessionId, [
      tagged('Long.', 'print("HEAD" + "x" * 30000 + "TAIL")'),
      tagged('Fail.', 'print("before the error")\n1 / 0'),
      tagged('Done.', 'final_answer("done")'),
    ]);
    const long = lastUserText(requests[1]!);
    expect(long.startsWith('HEAD')).toBe(true);
    expect(long).toContain('TAIL');
    expect(long).toMatch(/characters omitted/);
    expect(long.length).toBeLessThan(25_000);
    const failed = lastUserText(requests[2]!);
    expect(failed).toContain('before the error');
    expect(failed).toContain('ZeroDivisionError');
    expect(failed.indexOf('before the error')).toBeLessThan(failed.indexOf('ZeroDivisionError'));
  });

  it('stops at the step limit with a clear failure', async () => {
    const sessionId = await codeSession();
    const replies = Array.from({ length: MAX_STEPS }, (_, i) => tagged('Again.', `print(${i})`));
    const { turn, requests } = await run(sessionId, replies);
    expect(requests).toHaveLength(MAX_STEPS);
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('step_limit');
    expect(turn.error?.message).toMatch(/CAIRN_CODE_MAX_STEPS/);
    expect(turn.answer).toBeNull();
  });
});
