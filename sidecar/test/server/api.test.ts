import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VERSION } from '../../src/config/version';
import {
  Capabilities,
  ErrorResponse,
  Health,
  ModelConfig,
  Project,
  Session,
  Turn,
  type TurnWithDetails,
} from '../../src/protocol';
import { type ApiResponse, type Harness, startHarness, tempDir } from '../support/harness';
import { errorCode, rawRequest } from './raw-http';

/** Asserts an `{ error: { code, message } }` answer and returns its message. */
function expectError(res: ApiResponse<unknown>, status: number, code: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ErrorResponse.parse(res.body);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message;
}

describe('meta routes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('answers health and capabilities in their documented shapes', async () => {
    const health = await h.api('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(z.strictObject(Health.shape).parse(health.body)).toEqual({
      ok: true,
      name: 'cairn',
      version: VERSION,
    });

    const caps = await h.api('GET', '/api/capabilities');
    expect(caps.status).toBe(200);
    const parsed = z.strictObject(Capabilities.shape).parse(caps.body);
    expect(parsed).toMatchObject({
      mode: 'local',
      projects: true,
      shell: true,
      files: true,
      version: VERSION,
    });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    expectError(await h.api('GET', '/api/no-such-thing'), 404, 'not_found');
  });
});

describe('projects', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('creates a project, and reuses it for the same path', async () => {
    const first = await h.api<Project>('POST', '/api/projects', { path: h.projectDir });
    expect(first.status).toBe(201);
    const project = Project.parse(first.body);
    expect(project.path).toBe(h.projectDir);
    expect(project.name).toBe(path.basename(h.projectDir));

    const again = await h.api<Project>('POST', '/api/projects', { path: h.projectDir });
    expect(again.status).toBeLessThan(300);
    expect(again.body.id).toBe(project.id);
    // The same folder by another spelling is the same project.
    const spelled = await h.api<Project>('POST', '/api/projects', { path: `${h.projectDir}/./` });
    expect(spelled.body.id).toBe(project.id);

    const list = await h.api<{ projects: Project[] }>('GET', '/api/projects');
    expect(list.status).toBe(200);
    expect(list.body.projects.filter((p) => p.path === h.projectDir).map((p) => p.id)).toEqual([project.id]);
  });

  it('refuses paths that are not an existing absolute folder, saying why', async () => {
    const relative = expectError(
      await h.api('POST', '/api/projects', { path: 'some/relative' }),
      400,
      'bad_request',
    );
    expect(relative).toMatch(/absolute/);
    const missing = path.join(h.projectDir, 'does-not-exist');
    expect(expectError(await h.api('POST', '/api/projects', { path: missing }), 400, 'bad_request')).toMatch(
      /does not exist/,
    );
    const file = path.join(h.projectDir, 'a-file.txt');
    fs.writeFileSync(file, 'x');
    expect(expectError(await h.api('POST', '/api/projects', { path: file }), 400, 'bad_request')).toMatch(
      /file, not a folder/,
    );
    expect(expectError(await h.api('POST', '/api/projects', {}), 400, 'bad_request')).toMatch(/path/);
    expect(expectError(await h.api('POST', '/api/projects', { path: 42 }), 400, 'bad_request')).toMatch(
      /path/,
    );
  });

  it('deletes a project with its sessions', async () => {
    const dir = tempDir('api-project');
    const project = (await h.api<Project>('POST', '/api/projects', { path: dir })).body;
    const session = (await h.api<Session>('POST', '/api/sessions', { project_id: project.id })).body;
    const other = (await h.api<Session>('POST', '/api/sessions', {})).body;

    const res = await h.api('DELETE', `/api/projects/${project.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const list = await h.api<{ projects: Project[] }>('GET', '/api/projects');
    expect(list.body.projects.map((p) => p.id)).not.toContain(project.id);
    expectError(await h.api('GET', `/api/sessions/${session.id}`), 404, 'not_found');
    expect((await h.api('GET', `/api/sessions/${other.id}`)).status).toBe(200);
    // The folder itself is the user's: deleting the project leaves it alone.
    expect(fs.existsSync(dir)).toBe(true);

    expectError(await h.api('DELETE', `/api/projects/${project.id}`), 404, 'not_found');
  });
});

describe('sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('creates sessions with and without a project, with defaults', async () => {
    const project = (await h.api<Project>('POST', '/api/projects', { path: h.projectDir })).body;
    const inProject = await h.api<Session>('POST', '/api/sessions', { project_id: project.id });
    expect(inProject.status).toBe(201);
    const s1 = Session.parse(inProject.body);
    expect(s1).toMatchObject({ project_id: project.id, approval: 'auto', running_turn_id: null });
    expect(s1.title.length).toBeGreaterThan(0);

    const loose = await h.api<Session>('POST', '/api/sessions', { title: 'Loose', approval: 'ask' });
    expect(loose.status).toBe(201);
    expect(Session.parse(loose.body)).toMatchObject({ project_id: null, title: 'Loose', approval: 'ask' });
    const bare = await h.api<Session>('POST', '/api/sessions');
    expect(bare.status).toBe(201);
    expect(bare.body.project_id).toBeNull();

    expect(
      expectError(await h.api('POST', '/api/sessions', { project_id: 'prj_nope' }), 404, 'not_found'),
    ).toMatch(/prj_nope/);
    expectError(await h.api('POST', '/api/sessions', { approval: 'sometimes' }), 400, 'bad_request');

    const all = await h.api<{ sessions: Session[] }>('GET', '/api/sessions');
    expect(all.status).toBe(200);
    expect(all.body.sessions.map((s) => s.id)).toEqual(
      expect.arrayContaining([s1.id, loose.body.id, bare.body.id]),
    );
    const filtered = await h.api<{ sessions: Session[] }>('GET', `/api/sessions?project_id=${project.id}`);
    expect(filtered.body.sessions.map((s) => s.id)).toEqual([s1.id]);
    const none = await h.api<{ sessions: Session[] }>('GET', '/api/sessions?project_id=prj_nope');
    expect(none.body.sessions).toEqual([]);
  });

  it('updates title and approval, refusing bad patches', async () => {
    const session = (await h.api<Session>('POST', '/api/sessions', {})).body;
    const titled = await h.api<Session>('PATCH', `/api/sessions/${session.id}`, { title: 'Renamed' });
    expect(titled.status).toBe(200);
    expect(titled.body).toMatchObject({ title: 'Renamed', approval: 'auto' });
    const asking = await h.api<Session>('PATCH', `/api/sessions/${session.id}`, { approval: 'ask' });
    expect(asking.body).toMatchObject({ title: 'Renamed', approval: 'ask' });
    expect((await h.api<Session>('GET', `/api/sessions/${session.id}`)).body).toMatchObject({
      title: 'Renamed',
      approval: 'ask',
    });

    expect(
      expectError(
        await h.api('PATCH', `/api/sessions/${session.id}`, { approval: 'never' }),
        400,
        'bad_request',
      ),
    ).toMatch(/approval/);
    expect(expectError(await h.api('PATCH', `/api/sessions/${session.id}`, {}), 400, 'bad_request')).toMatch(
      /title, approval or mode/,
    );
    expectError(await h.api('PATCH', `/api/sessions/${session.id}`, { title: '' }), 400, 'bad_request');
    expectError(await h.api('PATCH', '/api/sessions/ses_nope', { title: 'x' }), 404, 'not_found');
  });

  it('deletes a session', async () => {
    const session = (await h.api<Session>('POST', '/api/sessions', {})).body;
    const res = await h.api('DELETE', `/api/sessions/${session.id}`);
    expect(res.status).toBe(204);
    expectError(await h.api('GET', `/api/sessions/${session.id}`), 404, 'not_found');
    expectError(await h.api('DELETE', `/api/sessions/${session.id}`), 404, 'not_found');
    const all = await h.api<{ sessions: Session[] }>('GET', '/api/sessions');
    expect(all.body.sessions.map((s) => s.id)).not.toContain(session.id);
  });
});

describe('turns', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('starts a turn idempotently by request_id', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'Hello there.' }] });

    const body = { prompt: 'say hello', request_id: 'req-1' };
    const started = await h.api<Turn>('POST', `/api/sessions/${sessionId}/turns`, body);
    expect(started.status).toBe(202);
    const turn = Turn.parse(started.body);
    expect(turn).toMatchObject({
      session_id: sessionId,
      prompt: 'say hello',
      request_id: 'req-1',
      status: 'running',
    });
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    expect(h.model.requests).toHaveLength(1);

    const again = await h.api<Turn>('POST', `/api/sessions/${sessionId}/turns`, body);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(turn.id);
    expect(again.body.status).toBe('completed');
    expect(h.model.requests).toHaveLength(1);

    const conflict = await h.api('POST', `/api/sessions/${sessionId}/turns`, {
      ...body,
      prompt: 'something else',
    });
    expect(expectError(conflict, 409, 'request_id_conflict')).toMatch(/request_id/);

    const got = await h.api<Turn>('GET', `/api/turns/${turn.id}`);
    expect(got.status).toBe(200);
    expect(Turn.parse(got.body)).toMatchObject({ id: turn.id, status: 'completed' });
    expect(got.body.finished_at).not.toBeNull();
    const page = await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${sessionId}/turns`);
    expect(page.body.turns.map((t) => t.id)).toEqual([turn.id]);
  });

  it('refuses a second turn while one runs, and cancels the running one', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'Thinking about it for a long while…' }], hang: true });
    const turn = await h.startTurn(sessionId, 'take your time', 'req-a');
    await h.model.waitForRequests(1);

    const second = await h.api('POST', `/api/sessions/${sessionId}/turns`, {
      prompt: 'another',
      request_id: 'req-b',
    });
    expect(expectError(second, 409, 'turn_running')).toContain(turn.id);
    // Repeating the running turn's own request is not a conflict: it returns that turn.
    const retry = await h.api<Turn>('POST', `/api/sessions/${sessionId}/turns`, {
      prompt: 'take your time',
      request_id: 'req-a',
    });
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ id: turn.id, status: 'running' });
    expect((await h.api<Session>('GET', `/api/sessions/${sessionId}`)).body.running_turn_id).toBe(turn.id);

    const cancelled = await h.api<Turn>('POST', `/api/turns/${turn.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: turn.id, status: 'cancelled' });
    expect((await h.api<Turn>('GET', `/api/turns/${turn.id}`)).body.status).toBe('cancelled');
    expect((await h.api<Session>('GET', `/api/sessions/${sessionId}`)).body.running_turn_id).toBeNull();
    // Cancelling a finished turn changes nothing.
    const twice = await h.api<Turn>('POST', `/api/turns/${turn.id}/cancel`);
    expect(twice.status).toBe(200);
    expect(twice.body.status).toBe('cancelled');

    // The session takes a new turn afterwards.
    h.model.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const next = await h.startTurn(sessionId, 'now quickly', 'req-c');
    expect((await h.waitForTurnEnd(next.id)).status).toBe('completed');
  });

  it('validates turn requests and answers unknown ids with 404', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    const turns = `/api/sessions/${sessionId}/turns`;
    expect(expectError(await h.api('POST', turns, { request_id: 'r' }), 400, 'bad_request')).toMatch(
      /prompt/,
    );
    expect(
      expectError(await h.api('POST', turns, { prompt: '', request_id: 'r' }), 400, 'bad_request'),
    ).toMatch(/prompt/);
    expect(expectError(await h.api('POST', turns, { prompt: 'hi' }), 400, 'bad_request')).toMatch(
      /request_id/,
    );
    expectError(
      await h.api('POST', turns, { prompt: 'hi', request_id: 'x'.repeat(201) }),
      400,
      'bad_request',
    );
    expectError(await h.api('POST', turns), 400, 'bad_request');
    expect(h.model.requests).toHaveLength(0);

    const unknown: [string, string, unknown?][] = [
      ['GET', '/api/turns/trn_nope'],
      ['POST', '/api/turns/trn_nope/cancel'],
      ['GET', '/api/sessions/ses_nope'],
      ['POST', '/api/sessions/ses_nope/turns', { prompt: 'hi', request_id: 'r' }],
      ['GET', '/api/sessions/ses_nope/turns'],
      ['GET', '/api/sessions/ses_nope/events'],
      ['GET', '/api/sessions/ses_nope/questions'],
      ['DELETE', '/api/sessions/ses_nope'],
      ['DELETE', '/api/projects/prj_nope'],
      ['GET', '/api/tool-calls/tc_nope'],
      ['POST', '/api/questions/q_nope/answer', { answer: 'yes' }],
      ['PATCH', '/api/models/mdl_nope', { name: 'x' }],
      ['POST', '/api/models/mdl_nope/activate'],
      ['DELETE', '/api/models/mdl_nope'],
      ['PUT', '/api/models/mdl_nope/key', { key: 'sk-whatever-1234' }],
    ];
    for (const [method, route, body] of unknown) {
      const res = await h.api(method, route, body);
      expect(res.status, `${method} ${route}`).toBe(404);
      const parsed = ErrorResponse.safeParse(res.body);
      expect(parsed.success, `${method} ${route}: ${JSON.stringify(res.body)}`).toBe(true);
      expect(parsed.data?.error.code, `${method} ${route}`).toBe('not_found');
      expect(parsed.data?.error.message, `${method} ${route}`).toMatch(/nope/);
    }
  });

  it('pages turns: limit 1-200, default 30, before cursor', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    const total = 33;
    for (let i = 1; i <= total; i++) {
      h.model.enqueue({ content: [{ type: 'text', text: `Answer ${i}.` }] });
      const turn = await h.startTurn(sessionId, `question ${i}`, `req-${i}`);
      expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    }
    const base = `/api/sessions/${sessionId}/turns`;
    for (const bad of [
      'limit=0',
      'limit=201',
      'limit=abc',
      'limit=1.5',
      'limit=-1',
      'before=abc',
      'before=0',
    ]) {
      expect(expectError(await h.api('GET', `${base}?${bad}`), 400, 'bad_request'), bad).toMatch(
        /limit|before/,
      );
    }

    type Page = { turns: TurnWithDetails[]; next_before: number | null };
    const first = await h.api<Page>('GET', base);
    expect(first.status).toBe(200);
    expect(first.body.turns).toHaveLength(30);
    expect(first.body.next_before).not.toBeNull();
    const rest = await h.api<Page>('GET', `${base}?before=${first.body.next_before}&limit=200`);
    expect(rest.body.next_before).toBeNull();
    const ordinals = [...first.body.turns, ...rest.body.turns].map((t) => t.ordinal).sort((a, b) => a - b);
    expect(ordinals).toEqual(Array.from({ length: total }, (_, i) => i + 1));

    const one = await h.api<Page>('GET', `${base}?limit=1`);
    expect(one.body.turns).toHaveLength(1);
    expect(one.body.turns[0]?.prompt).toBe(`question ${total}`);
    expect(one.body.turns[0]?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const all = await h.api<Page>('GET', `${base}?limit=200`);
    expect(all.body.turns).toHaveLength(total);
    expect(all.body.next_before).toBeNull();
  });

  it('lists events after a sequence number', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({
      content: [{ type: 'text', text: 'A reply long enough to stream in several pieces.' }],
    });
    const turn = await h.startTurn(sessionId, 'stream something');
    await h.waitForTurnEnd(turn.id);

    const base = `/api/sessions/${sessionId}/events`;
    const all = (await h.api<{ events: { seq: number; type: string }[] }>('GET', base)).body.events;
    expect(all.length).toBeGreaterThan(3);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all[0]?.type).toBe('turn.started');
    expect(all.at(-1)?.type).toBe('turn.completed');

    const n = 2;
    const after = (await h.api<{ events: { seq: number }[] }>('GET', `${base}?after=${n}`)).body.events;
    expect(after).toEqual(all.slice(n));
    const none = (await h.api<{ events: unknown[] }>('GET', `${base}?after=${all.length}`)).body.events;
    expect(none).toEqual([]);
    for (const bad of ['after=-1', 'after=abc', 'after=1.5']) {
      expect(expectError(await h.api('GET', `${base}?${bad}`), 400, 'bad_request'), bad).toMatch(/after/);
    }
  });
});

describe('request bodies', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const post = (route: string, body: string, contentType = 'application/json') =>
    rawRequest({
      port: h.server.port,
      method: 'POST',
      path: route,
      headers: {
        host: `127.0.0.1:${h.server.port}`,
        authorization: `Bearer ${h.server.token}`,
        'content-type': contentType,
      },
      body,
    });

  it('answers malformed JSON with 400 bad_request, not 500', async () => {
    const { sessionId } = await h.newSession();
    for (const body of ['{bad json', '{"prompt": "hi",', '', 'null', '[]', '"just a string"']) {
      const res = await post(`/api/sessions/${sessionId}/turns`, body);
      expect(res.status, body).toBe(400);
      expect(errorCode(res), body).toBe('bad_request');
    }
    const res = await post('/api/projects', '{"path":');
    expect(res.status).toBe(400);
    expect(errorCode(res)).toBe('bad_request');
    expect(h.model.requests).toHaveLength(0);
  });

  it('answers an unsupported content type with a 4xx JSON error', async () => {
    const res = await post('/api/sessions', 'title=x', 'application/x-www-form-urlencoded');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(ErrorResponse.safeParse(JSON.parse(res.text)).success).toBe(true);
  });
});

describe('models', () => {
  let h: Harness;
  const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };

  beforeAll(async () => {
    // No Secret Service here: the keychain must fail fast, not hang, and say what to do instead.
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/cairn-test-bus';
    delete process.env.DISPLAY;
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
    if (saved.bus === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
    if (saved.display === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = saved.display;
  });

  it('creates, lists, updates, activates and deletes model configs', async () => {
    // The harness runs with CAIRN_ANTHROPIC_API_KEY and CAIRN_MODEL set: the list says so, without the key.
    expect((await h.api<{ models: ModelConfig[] }>('GET', '/api/models')).body).toEqual({
      models: [],
      env_overrides: { key: true, model: 'cairn-test-model', base_url: h.model.url },
    });

    const a = await h.api<ModelConfig>('POST', '/api/models', { name: 'First', model: 'claude-a' });
    expect(a.status).toBe(201);
    expect(z.strictObject(ModelConfig.shape).parse(a.body)).toMatchObject({
      name: 'First',
      model: 'claude-a',
      base_url: null,
      active: true,
      has_key: false,
      max_tokens: 8192,
      context_window: 200_000,
      thinking_budget: null,
    });
    const b = await h.api<ModelConfig>('POST', '/api/models', {
      name: 'Second',
      model: 'claude-b',
      base_url: 'http://127.0.0.1:9/v1',
      max_tokens: 1000,
    });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ active: false, base_url: 'http://127.0.0.1:9/v1', max_tokens: 1000 });

    const list = await h.api<{ models: ModelConfig[] }>('GET', '/api/models');
    expect(list.status).toBe(200);
    expect(list.body.models.map((m) => [m.id, m.active])).toEqual([
      [a.body.id, true],
      [b.body.id, false],
    ]);

    const patched = await h.api<ModelConfig>('PATCH', `/api/models/${b.body.id}`, {
      name: 'Renamed',
      base_url: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: b.body.id, name: 'Renamed', base_url: null, model: 'claude-b' });

    const activated = await h.api<ModelConfig>('POST', `/api/models/${b.body.id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ id: b.body.id, active: true });
    const after = (await h.api<{ models: ModelConfig[] }>('GET', '/api/models')).body.models;
    expect(after.filter((m) => m.active).map((m) => m.id)).toEqual([b.body.id]);

    const deleted = await h.api('DELETE', `/api/models/${a.body.id}`);
    expect(deleted.status).toBe(204);
    const remaining = (await h.api<{ models: ModelConfig[] }>('GET', '/api/models')).body.models;
    expect(remaining.map((m) => m.id)).toEqual([b.body.id]);
  });

  it('refuses invalid model configs with 400', async () => {
    for (const body of [
      { name: 'X', model: 'm', base_url: 'not a url' },
      { name: 'X', model: 'm', base_url: 'ftp://example.com' },
      { name: 'X', model: 'm', base_url: 'file:///etc/passwd' },
      { name: '', model: 'm' },
      { name: 'X' },
      { name: 'X', model: 'm', max_tokens: 0 },
      { name: 'X', model: 'm', context_window: 'big' },
    ]) {
      expectError(await h.api('POST', '/api/models', body), 400, 'bad_request');
    }
    expect(
      expectError(
        await h.api('POST', '/api/models', { name: 'X', model: 'm', base_url: 'nope' }),
        400,
        'bad_request',
      ),
    ).toMatch(/base_url/);
    const model = (await h.api<ModelConfig>('POST', '/api/models', { name: 'Valid', model: 'm' })).body;
    expectError(await h.api('PATCH', `/api/models/${model.id}`, { base_url: 'ftp://x' }), 400, 'bad_request');
    expectError(await h.api('PUT', `/api/models/${model.id}/key`, { key: '' }), 400, 'bad_request');
  });

  it('says to use CAIRN_ANTHROPIC_API_KEY when there is no keychain to store a key in', async () => {
    const model = (await h.api<ModelConfig>('POST', '/api/models', { name: 'Keyless', model: 'claude-k' }))
      .body;
    const res = await h.api('PUT', `/api/models/${model.id}/key`, { key: 'sk-ant-not-stored-0123456789' });
    const message = expectError(res, 503, 'keychain_unavailable');
    expect(message).toContain('CAIRN_ANTHROPIC_API_KEY');
    expect(message).not.toContain('sk-ant-not-stored');
    const listed = (await h.api<{ models: ModelConfig[] }>('GET', '/api/models')).body.models;
    expect(listed.find((m) => m.id === model.id)?.has_key).toBe(false);
  });
});

describe('input that would only fail later is refused up front', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('an empty session title, and a thinking budget not below max_tokens', async () => {
    const empty = await h.api<{ error: { code: string; message: string } }>('POST', '/api/sessions', {
      title: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/title/);

    const tooBig = await h.api<{ error: { message: string } }>('POST', '/api/models', {
      name: 'x',
      model: 'm',
      max_tokens: 1000,
      thinking_budget: 5000,
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.message).toMatch(/thinking_budget must be smaller than max_tokens/);

    const ok = await h.api<ModelConfig>('POST', '/api/models', {
      name: 'y',
      model: 'm',
      max_tokens: 8192,
      thinking_budget: 2048,
    });
    expect(ok.status).toBe(201);
    const shrink = await h.api<{ error: { message: string } }>('PATCH', `/api/models/${ok.body.id}`, {
      max_tokens: 2000,
    });
    expect(shrink.status).toBe(400);
    expect(shrink.body.error.message).toMatch(/smaller than max_tokens \(2000\)/);
  });

  it('the About route names the data directory and versions', async () => {
    const about = await h.api<{ data_dir: string; version: string; node: string }>('GET', '/api/about');
    expect(about.status).toBe(200);
    expect(about.body).toMatchObject({ data_dir: h.dataDir, version: VERSION, node: process.versions.node });
  });
});
