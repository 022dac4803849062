// Permission rules over the API: scopes and listing filters, checks on tools and patterns, edits, deletes,
// the "test" route, and rules going with the project or session they belong to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionDecision, PermissionRule, PermissionRuleList, Session } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

describe('permission rules over the API', () => {
  let h: Harness;
  let projectId: string;
  let sessionId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ projectId, sessionId } = await h.newSession({ approval: 'ask' }));
  });
  afterAll(async () => h?.close());

  const create = (body: Record<string, unknown>) =>
    h.api<PermissionRule>('POST', '/api/permission-rules', body);
  const list = async (query = '') =>
    (await h.api<PermissionRuleList>('GET', `/api/permission-rules${query}`)).body.rules;
  const test = (body: Record<string, unknown>) =>
    h.api<PermissionDecision>('POST', '/api/permission-rules/test', body);

  it('makes global, project and session rules, lists them by scope, edits and deletes them', async () => {
    const global = await create({ tool: 'Bash', pattern: 'git push *', action: 'deny' });
    expect(global.status).toBe(201);
    expect(global.body).toMatchObject({
      tool: 'Bash',
      pattern: 'git push *',
      action: 'deny',
      project_id: null,
      session_id: null,
    });
    const project = await create({
      tool: 'Bash',
      pattern: 'npm test *',
      action: 'allow',
      project_id: projectId,
    });
    expect(project.body).toMatchObject({ project_id: projectId, session_id: null });
    const session = await create({ tool: 'mcp__github__*', action: 'ask', session_id: sessionId });
    // A session's rule is listed with its project's.
    expect(session.body).toMatchObject({ pattern: null, project_id: projectId, session_id: sessionId });

    expect((await list()).map((r) => r.id)).toEqual([global.body.id, project.body.id, session.body.id]);
    expect((await list('?scope=global')).map((r) => r.id)).toEqual([global.body.id]);
    expect((await list(`?project_id=${projectId}`)).map((r) => r.id)).toEqual([
      project.body.id,
      session.body.id,
    ]);
    expect((await list(`?session_id=${sessionId}`)).map((r) => r.id)).toEqual([session.body.id]);

    const edited = await h.api<PermissionRule>('PATCH', `/api/permission-rules/${project.body.id}`, {
      pattern: 'npm run test *',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: project.body.id, pattern: 'npm run test *', action: 'allow' });
    expect((await h.api('PATCH', `/api/permission-rules/${project.body.id}`, {})).status).toBe(400);

    for (const rule of [global.body, project.body, session.body]) {
      expect((await h.api('DELETE', `/api/permission-rules/${rule.id}`)).status).toBe(204);
    }
    expect(await list()).toEqual([]);
    const gone = await h.api<{ error: { code: string } }>(
      'DELETE',
      `/api/permission-rules/${global.body.id}`,
    );
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
  });

  it('refuses what cannot be a rule, saying why, and saves nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tool: 'Bash', action: 'maybe' }, /action/],
      [{ tool: '', action: 'allow' }, /tool is required/],
      [{ tool: 'Bash', pattern: '', action: 'allow' }, /send null/],
      [{ tool: 'Bash', pattern: 'echo x && rm y', action: 'allow' }, /./],
      [{ tool: 'AskUserQuestion', pattern: 'anything', action: 'allow' }, /pattern/],
      [{ tool: 'Read', pattern: '../outside/**', action: 'deny' }, /./],
      [{ tool: 'Bash', action: 'allow', project_id: 'prj_missing' }, /prj_missing/],
      [{ tool: 'Bash', action: 'allow', session_id: 'ses_missing' }, /ses_missing/],
      [{ tool: 'Bash', action: 'allow', scope: 'everywhere' }, /scope/],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect(await list()).toEqual([]);
  });

  it('tests a call against the rules and a mode: deny over allow, project with global', async () => {
    const allow = await create({ tool: 'Bash', pattern: 'git *', action: 'allow' });
    const deny = await create({ tool: 'Bash', pattern: 'git push *', action: 'deny', project_id: projectId });

    const status = await test({ tool: 'Bash', input: { command: 'git status' }, project_id: projectId });
    expect(status.body).toMatchObject({ decision: 'allow', rule_id: allow.body.id });
    const push = await test({
      tool: 'Bash',
      input: { command: 'git push origin main' },
      project_id: projectId,
    });
    expect(push.body).toMatchObject({ decision: 'deny', rule_id: deny.body.id });
    // Without the project, its rule does not apply.
    expect((await test({ tool: 'Bash', input: { command: 'git push' } })).body.decision).toBe('allow');
    // No rule: the mode decides (the session's, or the one given).
    const unlisted = await test({ tool: 'Bash', input: { command: 'make' }, session_id: sessionId });
    expect(unlisted.body).toMatchObject({ decision: 'ask', rule_id: null });
    expect(unlisted.body.suggestion).toEqual({ tool: 'Bash', pattern: 'make *' });
    const auto = await test({
      tool: 'Bash',
      input: { command: 'make' },
      project_id: projectId,
      approval: 'auto',
    });
    expect(auto.body.decision).toBe('allow');
    const readOnly = await test({ tool: 'Write', input: { path: 'a', content: '' }, approval: 'read_only' });
    expect(readOnly.body.decision).toBe('deny');
    expect((await test({ tool: 'Bash', input: {}, project_id: 'prj_missing' })).status).toBe(404);

    await h.api('DELETE', `/api/permission-rules/${allow.body.id}`);
    await h.api('DELETE', `/api/permission-rules/${deny.body.id}`);
  });

  it('rules go with their session and project; existing sessions keep their mode; modes are checked', async () => {
    const extra = await h.newSession();
    const own = await create({ tool: 'Bash', action: 'allow', session_id: extra.sessionId });
    expect((await h.api('DELETE', `/api/sessions/${extra.sessionId}`)).status).toBe(204);
    expect((await list()).map((r) => r.id)).not.toContain(own.body.id);

    const patched = await h.api<Session>('PATCH', `/api/sessions/${sessionId}`, { approval: 'auto_edits' });
    expect(patched.body.approval).toBe('auto_edits');
    expect((await h.api('PATCH', `/api/sessions/${sessionId}`, { approval: 'sometimes' })).status).toBe(400);
    expect((await h.api<Session>('GET', `/api/sessions/${sessionId}`)).body.approval).toBe('auto_edits');
  });
});
