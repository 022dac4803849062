import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRule, Question, ToolCall, TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { lastToolResults } from '../support/tool-results';

/**
 * Rules and modes decide the model's calls and its scripts' calls, through the real runner, parser and
 * store: an allowed command runs unasked, a denied one never runs, a compound with one unlisted part asks,
 * and "always allow" saves a rule that decides the next call.
 */
describe('permission rules through the agent loop', () => {
  let h: Harness;
  let projectId: string;
  beforeAll(async () => {
    h = await startHarness();
    projectId = (await h.api<{ id: string }>('POST', '/api/projects', { path: h.projectDir })).body.id;
  });
  afterAll(async () => h?.close());
  afterEach(async () => {
    const { rules } = (await h.api<{ rules: PermissionRule[] }>('GET', '/api/permission-rules')).body;
    for (const rule of rules) await h.api('DELETE', `/api/permission-rules/${rule.id}`);
  });

  const rule = async (tool: string, pattern: string | null, action: string, scope: 'project' | 'global') => {
    const res = await h.api<PermissionRule>('POST', '/api/permission-rules', {
      tool,
      pattern,
      action,
      ...(scope === 'project' ? { project_id: projectId } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const turnsOf = async (sessionId: string): Promise<TurnWithDetails[]> =>
    (await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns?limit=50`)).body
      .turns;
  const callsOf = async (sessionId: string): Promise<ToolCall[]> =>
    (await turnsOf(sessionId)).flatMap((t) => t.tool_calls);
  /** The questions a turn asked, answered or not. */
  const askedIn = async (sessionId: string, turnId: string): Promise<Question[]> =>
    (await turnsOf(sessionId)).find((t) => t.id === turnId)?.questions ?? [];
  const pendingOf = async (sessionId: string, count = 1): Promise<Question[]> => {
    for (;;) {
      const { questions } = (
        await h.api<{ questions: Question[] }>('GET', `/api/sessions/${sessionId}/questions`)
      ).body;
      if (questions.length >= count) return questions;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const bashTurn = async (sessionId: string, command: string) => {
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    return h.startTurn(sessionId, 'run it');
  };
  const file = (name: string) => path.join(h.projectDir, name);

  it('an allowed command runs without asking in "ask" mode; git status and npm test style rules', async () => {
    await rule('Bash', 'echo *', 'allow', 'project');
    const { sessionId } = await h.newSession({ approval: 'ask' });
    const turn = await bashTurn(sessionId, 'echo allowed > allowed.txt');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.readFileSync(file('allowed.txt'), 'utf8')).toBe('allowed\n');
    expect((await callsOf(sessionId)).map((c) => [c.name, c.status])).toEqual([['Bash', 'completed']]);
    expect(await askedIn(sessionId, turn.id)).toEqual([]);
  });

  it('a denied command never runs, even in "auto" mode and hidden in a substitution', async () => {
    fs.writeFileSync(file('keep.txt'), 'keep');
    const deny = await rule('Bash', 'rm *', 'deny', 'global');
    const { sessionId } = await h.newSession({ approval: 'auto' });
    const turn = await bashTurn(sessionId, 'echo ok && echo "$(rm -f keep.txt)"');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.existsSync(file('keep.txt'))).toBe(true);
    const [call] = await callsOf(sessionId);
    expect(call).toMatchObject({ name: 'Bash', status: 'denied', is_error: true });
    const result = lastToolResults(h.model.requests.at(-1)!)[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toContain(deny.id);
  });

  it('a compound command with one unlisted part asks, saying why; "always allow" saves a rule that decides the next call', async () => {
    await rule('Bash', 'echo *', 'allow', 'project');
    const { sessionId } = await h.newSession({ approval: 'ask' });
    const turn = await bashTurn(sessionId, 'echo one && touch made-by-touch.txt');
    const [question] = await pendingOf(sessionId);
    expect(question!.kind).toBe('approval');
    expect(question!.permission?.reason).toMatch(/touch/);
    expect(question!.permission?.suggestion).toEqual({ tool: 'Bash', pattern: 'touch *' });
    expect(fs.existsSync(file('made-by-touch.txt'))).toBe(false);

    // A pattern that cannot be a rule is refused, and the question keeps waiting.
    const bad = await h.api('POST', `/api/questions/${question!.id}/answer`, {
      answer: 'allow',
      remember: 'project',
      pattern: 'touch x && rm y',
    });
    expect(bad.status).toBe(400);
    expect((await pendingOf(sessionId)).map((q) => q.id)).toEqual([question!.id]);

    const ok = await h.api('POST', `/api/questions/${question!.id}/answer`, {
      answer: 'allow',
      remember: 'project',
    });
    expect(ok.status).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.existsSync(file('made-by-touch.txt'))).toBe(true);
    const saved = (
      await h.api<{ rules: PermissionRule[] }>('GET', `/api/permission-rules?project_id=${projectId}`)
    ).body.rules;
    expect(saved.map((r) => [r.tool, r.pattern, r.action, r.session_id])).toContainEqual([
      'Bash',
      'touch *',
      'allow',
      null,
    ]);

    // The next call of the same kind, in another session of the project, runs unasked.
    const other = await h.newSession({ approval: 'ask' });
    const next = await bashTurn(other.sessionId, 'echo two && touch second.txt');
    expect((await h.waitForTurnEnd(next.id)).status).toBe('completed');
    expect(fs.existsSync(file('second.txt'))).toBe(true);
    expect(await askedIn(other.sessionId, next.id)).toEqual([]);
  });

  it('"allow for this session" decides that session only; "always deny" refuses the next call', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    const first = await bashTurn(sessionId, 'touch s1.txt');
    const [q1] = await pendingOf(sessionId);
    await h.api('POST', `/api/questions/${q1!.id}/answer`, { answer: 'allow', remember: 'session' });
    expect((await h.waitForTurnEnd(first.id)).status).toBe('completed');
    const again = await bashTurn(sessionId, 'touch s2.txt');
    expect((await h.waitForTurnEnd(again.id)).status).toBe('completed');
    expect(fs.existsSync(file('s2.txt'))).toBe(true);

    const other = await h.newSession({ approval: 'ask' });
    const asked = await bashTurn(other.sessionId, 'touch s3.txt');
    const [q3] = await pendingOf(other.sessionId);
    await h.api('POST', `/api/questions/${q3!.id}/answer`, {
      answer: 'deny',
      remember: 'global',
      pattern: 'touch s3*',
    });
    expect((await h.waitForTurnEnd(asked.id)).status).toBe('completed');
    const refused = await bashTurn(other.sessionId, 'touch s3.txt');
    expect((await h.waitForTurnEnd(refused.id)).status).toBe('completed');
    expect(fs.existsSync(file('s3.txt'))).toBe(false);
    expect((await callsOf(other.sessionId)).map((c) => c.status)).toEqual(['denied', 'denied']);
  });

  it('a deny rule saved while a call waits for approval still refuses it when it is allowed', async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    const turn = await bashTurn(sessionId, 'touch waited.txt');
    const [question] = await pendingOf(sessionId);
    await rule('Bash', 'touch *', 'deny', 'project');
    await h.api('POST', `/api/questions/${question!.id}/answer`, { answer: 'allow' });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.existsSync(file('waited.txt'))).toBe(false);
    expect((await callsOf(sessionId)).map((c) => c.status)).toEqual(['denied']);
  });

  it("a script's call through the tool runtime obeys the same rules", async () => {
    await rule('Write', 'locked/**', 'deny', 'project');
    const { sessionId } = await h.newSession({ approval: 'auto' });
    const command =
      `cairn tool call Write --json '{"path": "locked/a.txt", "content": "x"}'; ` +
      `cairn tool call Write --json '{"path": "open/a.txt", "content": "y"}'`;
    const turn = await bashTurn(sessionId, command);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(fs.existsSync(file('locked/a.txt'))).toBe(false);
    expect(fs.readFileSync(file('open/a.txt'), 'utf8')).toBe('y');
    const writes = (await callsOf(sessionId)).filter((c) => c.name === 'Write');
    expect(writes.map((c) => c.status)).toEqual(['denied', 'completed']);
    expect(writes.every((c) => c.parent_tool_call_id !== null)).toBe(true);
  });

  it('read_only refuses side effects with how to switch; auto_edits runs edits and asks for commands', async () => {
    const readOnly = await h.newSession({ approval: 'read_only' });
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { path: 'ro.txt', content: 'no' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const ro = await h.startTurn(readOnly.sessionId, 'write');
    expect((await h.waitForTurnEnd(ro.id)).status).toBe('completed');
    expect(fs.existsSync(file('ro.txt'))).toBe(false);
    expect(lastToolResults(h.model.requests.at(-1)!)[0]!.content).toMatch(/read-only[\s\S]*auto_edits/);

    const edits = await h.newSession({ approval: 'auto_edits' });
    h.model.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'Write', input: { path: 'ae.txt', content: 'yes' } },
          { type: 'tool_use', name: 'Bash', input: { command: 'touch ae-bash.txt' } },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const ae = await h.startTurn(edits.sessionId, 'edit and run');
    const [q] = await pendingOf(edits.sessionId);
    expect(q!.tool?.name).toBe('Bash');
    expect(fs.readFileSync(file('ae.txt'), 'utf8')).toBe('yes');
    await h.api('POST', `/api/questions/${q!.id}/answer`, { answer: 'deny' });
    expect((await h.waitForTurnEnd(ae.id)).status).toBe('completed');
    expect(fs.existsSync(file('ae-bash.txt'))).toBe(false);
  });
});
