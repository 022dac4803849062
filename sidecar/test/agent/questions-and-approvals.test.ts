import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Question, ToolCall, TurnWithDetails } from '../../src/protocol';
import { connectWs, type Harness, startHarness } from '../support/harness';

describe('approval mode "ask"', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('holds side-effect tools for approval; read-only tools run; allow runs, deny does not', async () => {
    h = await startHarness();
    fs.writeFileSync(path.join(h.projectDir, 'readme.txt'), 'read me');
    const { sessionId } = await h.newSession({ approval: 'ask' });
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { path: 'readme.txt' } },
          {
            type: 'tool_use',
            id: 'toolu_allow',
            name: 'Bash',
            input: { command: 'echo allowed > allowed.txt' },
          },
          { type: 'tool_use', id: 'toolu_deny', name: 'Write', input: { path: 'denied.txt', content: 'no' } },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'do things');
    // Both approvals wait; Read did not ask.
    let pending: Question[] = [];
    while (pending.length < 2) {
      pending = (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body
        .questions;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(pending.map((q) => [q.kind, q.tool?.name])).toEqual([
      ['approval', 'Bash'],
      ['approval', 'Write'],
    ]);
    expect(pending[0]!.question).toContain('echo allowed');
    expect(fs.existsSync(path.join(h.projectDir, 'allowed.txt'))).toBe(false);
    // The start of each call says whether it waits for the user.
    const starts = (await h.events(sessionId)).filter((e) => e.type === 'tool.started');
    expect(starts.map((e) => (e.type === 'tool.started' ? [e.name, e.status] : []))).toEqual([
      ['Read', 'running'],
      ['Bash', 'waiting_approval'],
      ['Write', 'waiting_approval'],
    ]);

    const bad = await h.api('POST', `/api/questions/${pending[0]!.id}/answer`, { answer: 'maybe' });
    expect(bad.status).toBe(400);
    expect((await h.api('POST', `/api/questions/${pending[0]!.id}/answer`, { answer: 'allow' })).status).toBe(
      200,
    );
    expect((await h.api('POST', `/api/questions/${pending[1]!.id}/answer`, { answer: 'deny' })).status).toBe(
      200,
    );
    const again = await h.api<{ error: { code: string } }>(
      'POST',
      `/api/questions/${pending[1]!.id}/answer`,
      { answer: 'allow' },
    );
    expect(again.status).toBe(409);

    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'allowed.txt'), 'utf8')).toBe('allowed\n');
    expect(fs.existsSync(path.join(h.projectDir, 'denied.txt'))).toBe(false);
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    expect(page.body.turns[0]!.tool_calls.map((c: ToolCall) => [c.name, c.status])).toEqual([
      ['Read', 'completed'],
      ['Bash', 'completed'],
      ['Write', 'denied'],
    ]);
    const results = h.model.requests[1]!.body.messages.at(-1)!.content as {
      content: string;
      is_error?: boolean;
    }[];
    expect(results[2]).toMatchObject({ is_error: true });
    expect(results[2]!.content).toMatch(/denied/);
  });

  it('"auto" (the default) runs side-effect tools without asking', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { path: 'auto.txt', content: 'yes' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    expect((await h.waitForTurnEnd((await h.startTurn(sessionId, 'write')).id)).status).toBe('completed');
    expect(fs.readFileSync(path.join(h.projectDir, 'auto.txt'), 'utf8')).toBe('yes');
  });
});

describe('AskUserQuestion', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('waits for the answer, survives a reconnect, and the answer reaches the model', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'AskUserQuestion',
            input: { question: 'Which colour?', options: ['red', 'blue'] },
          },
        ],
      },
      { content: [{ type: 'text', text: 'Blue it is.' }] },
    );
    const turn = await h.startTurn(sessionId, 'pick a colour');
    const first = await connectWs(h.server.url);
    first.send({ type: 'authenticate', token: h.server.token });
    await first.next((m) => m.type === 'authenticated');
    first.send({ type: 'subscribe', session_id: sessionId, after_seq: 0 });
    const required = await first.next((m) => m.type === 'event' && m.event.type === 'question.required');
    first.socket.close();
    await first.closed;

    // A client coming back still finds the question pending, in the list and in the journal.
    const listed = (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`))
      .body.questions;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      kind: 'question',
      question: 'Which colour?',
      options: ['red', 'blue'],
      status: 'pending',
    });
    expect(
      required.type === 'event' && required.event.type === 'question.required' && required.event.question.id,
    ).toBe(listed[0]!.id);

    const answered = await h.api<Question>('POST', `/api/questions/${listed[0]!.id}/answer`, {
      answer: 'blue',
    });
    expect(answered.body.status).toBe('answered');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(JSON.stringify(h.model.requests[1]!.body.messages.at(-1))).toContain('blue');
    const types = (await h.events(sessionId)).map((e) => e.type);
    expect(types).toContain('question.answered');
    expect(
      (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body.questions,
    ).toEqual([]);
  });

  it('a cancelled turn closes its pending question', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      content: [{ type: 'tool_use', name: 'AskUserQuestion', input: { question: 'Sure?' } }],
    });
    const turn = await h.startTurn(sessionId, 'ask me');
    await h.waitForEvent(sessionId, (e) => e.type === 'question.required');
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    expect(
      (await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)).body.questions,
    ).toEqual([]);
    const types = (await h.events(sessionId)).map((e) => e.type);
    expect(types).toContain('question.closed');
    expect(types.at(-1)).toBe('turn.cancelled');
  });
});
