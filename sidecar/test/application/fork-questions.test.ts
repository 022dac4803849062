import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRule, Question, SessionDetail, Turn, TurnWithDetails } from '../../src/protocol';
import { forkCall, forkScript, spawn, text } from '../support/fork-script';
import { type Harness, startHarness } from '../support/harness';
import { lastToolResults } from '../support/tool-results';

/**
 * A fork obeys its parent's permission rules and approval mode, and its questions and approvals are asked
 * in its parent's session (where the person watches): answered there, they reach the fork's waiting call.
 */
describe('forks: permissions and questions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());
  afterEach(async () => {
    const { rules } = (await h.api<{ rules: PermissionRule[] }>('GET', '/api/permission-rules')).body;
    for (const rule of rules) await h.api('DELETE', `/api/permission-rules/${rule.id}`);
  });

  const pendingOf = async (sessionId: string): Promise<Question[]> => {
    for (;;) {
      const { questions } = (
        await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)
      ).body;
      if (questions.length > 0) return questions;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const onlyFork = async (sessionId: string) => {
    const { forks } = (await h.api<SessionDetail>('GET', `/api/sessions/${sessionId}`)).body;
    expect(forks).toHaveLength(1);
    return forks[0]!;
  };
  const callsOf = async (sessionId: string) =>
    (await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`)).body.turns.flatMap(
      (t) => t.tool_calls,
    );
  const write = (file: string, content: string) =>
    ({ type: 'tool_use', name: 'Write', input: { path: file, content } }) as const;

  it("a deny rule on the parent's session refuses the fork's call", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    const rule = await h.api('POST', '/api/permission-rules', {
      tool: 'Bash',
      pattern: 'echo *',
      action: 'deny',
      session_id: sessionId,
    });
    expect(rule.status).toBe(201);
    s.parent({ content: [spawn('denied')] }, forkCall('gather_all'), text('Gathered.'));
    s.fork(
      'denied',
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi > denied.txt' } }] },
      text('It was refused.'),
    );
    const turn = await h.startTurn(sessionId, 'try');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const fork = await onlyFork(sessionId);
    expect((await callsOf(fork.fork_id)).map((c) => [c.name, c.status])).toEqual([['Bash', 'denied']]);
    expect(lastToolResults(s.requests('denied')[1]!)[0]!.content).toContain('Refused by a permission rule');
    expect(fs.existsSync(path.join(h.projectDir, 'denied.txt'))).toBe(false);
  });

  it("in the parent's ask mode the fork's approval is asked in the parent; always allow saves the parent's rule", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession({ approval: 'ask' });
    s.parent({ content: [spawn('writer')] }, forkCall('gather_all'), text('Written.'));
    s.fork(
      'writer',
      { content: [write('out/a.txt', 'A')] },
      { content: [write('out/b.txt', 'B')] },
      text('writer done'),
    );
    const turn = await h.startTurn(sessionId, 'write');
    const [approval] = await pendingOf(sessionId);
    const fork = await onlyFork(sessionId);
    expect(approval).toMatchObject({
      kind: 'approval',
      session_id: sessionId,
      turn_id: turn.id,
      fork_id: fork.fork_id,
      tool: { name: 'Write' },
    });
    // Asked in the parent only: the fork's own session has no question, its journal no announcement.
    expect(
      (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${fork.fork_id}/questions`)).body
        .questions,
    ).toEqual([]);
    expect((await h.events(fork.fork_id)).some((e) => e.type === 'question.required')).toBe(false);
    const required = await h.waitForEvent(sessionId, (e) => e.type === 'question.required');
    expect(required.turn_id).toBe(turn.id);

    const answered = await h.api<Question>('POST', `/api/questions/${approval!.id}/answer`, {
      answer: 'allow',
      remember: 'session',
    });
    expect(answered.status).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'out', 'a.txt'), 'utf8')).toBe('A');
    // The rule saved for the parent's session lets the fork's next write run unasked.
    expect(fs.readFileSync(path.join(h.projectDir, 'out', 'b.txt'), 'utf8')).toBe('B');
    const { rules } = (await h.api<{ rules: PermissionRule[] }>('GET', '/api/permission-rules')).body;
    expect(rules).toEqual([
      expect.objectContaining({ tool: 'Write', pattern: 'out/**', action: 'allow', session_id: sessionId }),
    ]);
    const asked = (await h.events(sessionId)).filter((e) => e.type === 'question.required');
    expect(asked).toHaveLength(1);
  });

  it("a fork's AskUserQuestion is answered through the parent, and the answer reaches the fork", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    s.parent({ content: [spawn('asker')] }, forkCall('gather_all'), text('Asked.'));
    s.fork(
      'asker',
      {
        content: [
          {
            type: 'tool_use',
            name: 'AskUserQuestion',
            input: { question: 'Which colour?', options: ['red', 'blue'] },
          },
        ],
      },
      text('blue chosen'),
    );
    const turn = await h.startTurn(sessionId, 'ask');
    const [question] = await pendingOf(sessionId);
    const fork = await onlyFork(sessionId);
    expect(question).toMatchObject({ kind: 'question', question: 'Which colour?', fork_id: fork.fork_id });
    expect(
      (await h.api<Question>('POST', `/api/questions/${question!.id}/answer`, { answer: 'blue' })).status,
    ).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(lastToolResults(s.requests('asker')[1]!)[0]!.content).toContain('blue');
    expect(await onlyFork(sessionId)).toMatchObject({ status: 'completed', response: 'blue chosen' });
    expect((await h.events(sessionId)).map((e) => e.type)).toContain('question.answered');
  });

  it("cancelling the parent's turn closes the fork's pending approval", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession({ approval: 'ask' });
    s.parent({ content: [spawn('waiter')] }, forkCall('gather_all'));
    s.fork('waiter', { content: [write('never.txt', 'no')] });
    const turn = await h.startTurn(sessionId, 'wait');
    const [approval] = await pendingOf(sessionId);
    expect((await h.api<Turn>('POST', `/api/turns/${turn.id}/cancel`)).body.status).toBe('cancelled');
    expect(
      (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body.questions,
    ).toEqual([]);
    const closed = (await h.events(sessionId)).find(
      (e) => e.type === 'question.closed' && e.question_id === approval!.id,
    );
    expect(closed).toBeDefined();
    expect(await onlyFork(sessionId)).toMatchObject({ status: 'cancelled' });
    expect(fs.existsSync(path.join(h.projectDir, 'never.txt'))).toBe(false);
  });
});
