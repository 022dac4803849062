import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse, type Project, Session } from '../../src/protocol';
import { type ApiResponse, type Harness, startHarness } from '../support/harness';

function expectError(res: ApiResponse<unknown>, status: number, code: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ErrorResponse.parse(res.body);
  expect(body.error.code).toBe(code);
  return body.error.message;
}

describe('session mode', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('creates sessions in tools mode by default and in code mode on request', async () => {
    const project = (await h.api<Project>('POST', '/api/projects', { path: h.projectDir })).body;
    const plain = await h.api<Session>('POST', '/api/sessions', { project_id: project.id });
    expect(Session.parse(plain.body).mode).toBe('tools');
    const code = await h.api<Session>('POST', '/api/sessions', { project_id: project.id, mode: 'code' });
    expect(code.status).toBe(201);
    expect(code.body.mode).toBe('code');
    expect((await h.api<Session>('GET', `/api/sessions/${code.body.id}`)).body.mode).toBe('code');
    expectError(
      await h.api('POST', '/api/sessions', { project_id: project.id, mode: 'scripts' }),
      400,
      'bad_request',
    );
  });

  it('refuses code mode for a session without a project', async () => {
    expect(expectError(await h.api('POST', '/api/sessions', { mode: 'code' }), 400, 'bad_request')).toMatch(
      /project/,
    );
    const loose = (await h.api<Session>('POST', '/api/sessions', {})).body;
    expect(
      expectError(await h.api('PATCH', `/api/sessions/${loose.id}`, { mode: 'code' }), 400, 'bad_request'),
    ).toMatch(/project/);
    expect((await h.api<Session>('GET', `/api/sessions/${loose.id}`)).body.mode).toBe('tools');
  });

  it('switches the mode alone between turns, and refuses while a turn runs', async () => {
    const { sessionId } = await h.newSession();
    const coded = await h.api<Session>('PATCH', `/api/sessions/${sessionId}`, { mode: 'code' });
    expect(coded.status).toBe(200);
    expect(coded.body.mode).toBe('code');
    const back = await h.api<Session>('PATCH', `/api/sessions/${sessionId}`, { mode: 'tools' });
    expect(back.body).toMatchObject({ mode: 'tools' });

    h.model.enqueue({ content: [{ type: 'text', text: 'Working on it…' }], hang: true });
    const turn = await h.startTurn(sessionId, 'take your time');
    await h.model.waitForRequests(1);
    expect(
      expectError(await h.api('PATCH', `/api/sessions/${sessionId}`, { mode: 'code' }), 409, 'turn_running'),
    ).toContain(turn.id);
    // The title can still change meanwhile: only the loop is fixed for the turn.
    expect((await h.api('PATCH', `/api/sessions/${sessionId}`, { title: 'Busy' })).status).toBe(200);
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    expect((await h.api<Session>('GET', `/api/sessions/${sessionId}`)).body.mode).toBe('tools');
    const after = await h.api<Session>('PATCH', `/api/sessions/${sessionId}`, { mode: 'code' });
    expect(after.body.mode).toBe('code');
  });
});

describe('session mode on a conversation-only server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CAIRN_CONVERSATION_ONLY: '1' } });
  });
  afterAll(async () => h?.close());

  it('refuses code mode, which needs kernels', async () => {
    expect(expectError(await h.api('POST', '/api/sessions', { mode: 'code' }), 400, 'bad_request')).toMatch(
      /kernels/,
    );
    const session = (await h.api<Session>('POST', '/api/sessions', { mode: 'tools' })).body;
    expect(session.mode).toBe('tools');
    expectError(await h.api('PATCH', `/api/sessions/${session.id}`, { mode: 'code' }), 400, 'bad_request');
  });
});
