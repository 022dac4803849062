import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorResponse,
  type Session,
  SessionDetail,
  SessionExport,
  type ToolCallWithResult,
  type TurnWithDetails,
} from '../../src/protocol';
import { type ApiResponse, type Harness, startHarness } from '../support/harness';

function expectError(res: ApiResponse<unknown>, status: number, code: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ErrorResponse.parse(res.body);
  expect(body.error.code).toBe(code);
  return body.error.message;
}

/** Branch, export and import through the real sidecar, on a turn the scripted model ran with a tool call. */
describe('branch, export and import routes', () => {
  let h: Harness;
  let sessionId: string;
  let projectId: string;
  let turns: TurnWithDetails[];

  const turnsOf = async (id: string) =>
    (await h.api<{ turns: TurnWithDetails[] }>('GET', `/api/sessions/${id}/turns`)).body.turns;
  const raw = (route: string, init: RequestInit = {}) =>
    fetch(`${h.server.url}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${h.server.token}`, ...(init.headers ?? {}) },
    });

  beforeAll(async () => {
    h = await startHarness();
    ({ sessionId, projectId } = await h.newSession());
    for (const n of [1, 2]) {
      h.model.enqueue(
        {
          content: [
            { type: 'text', text: `Counting ${n}.` },
            { type: 'tool_use', name: 'Bash', input: { command: `echo counted-${n}` } },
          ],
        },
        { content: [{ type: 'text', text: `Counted ${n}.` }] },
      );
      const turn = await h.startTurn(sessionId, `count to ${n}`);
      expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    }
    turns = await turnsOf(sessionId);
  });
  afterAll(async () => h?.close());

  it('branches at a turn: 201, the new session, listed by its parent', async () => {
    const res = await h.api<Session>('POST', `/api/sessions/${sessionId}/branch`, { turn_id: turns[0]!.id });
    expect(res.status).toBe(201);
    expect(res.body.branched_from).toEqual({ session_id: sessionId, turn_id: turns[0]!.id });
    expect(res.body.project_id).toBe(projectId);
    const detail = SessionDetail.parse((await h.api('GET', `/api/sessions/${sessionId}`)).body);
    expect(detail.branches.map((b) => [b.session_id, b.turn_id])).toEqual([[res.body.id, turns[0]!.id]]);
    const copied = await turnsOf(res.body.id);
    expect(copied.map((t) => t.prompt)).toEqual(['count to 1']);
    const call = await h.api<ToolCallWithResult>('GET', `/api/tool-calls/${copied[0]!.tool_calls[0]!.id}`);
    expect(call.body.result).toContain('counted-1');
    expect(call.body.session_id).toBe(res.body.id);

    // The branch runs on: its next request carries the copied history.
    h.model.enqueue({ content: [{ type: 'text', text: 'Branched reply.' }] });
    const next = await h.startTurn(res.body.id, 'and now?');
    expect((await h.waitForTurnEnd(next.id)).status).toBe('completed');
    const sent = JSON.stringify(h.model.requests.at(-1)!.body.messages);
    expect(sent).toContain('counted-1');
    expect(sent).not.toContain('count to 2');

    expectError(
      await h.api('POST', `/api/sessions/${sessionId}/branch`, { turn_id: 'trn_missing' }),
      404,
      'not_found',
    );
    expectError(await h.api('POST', `/api/sessions/${sessionId}/branch`, {}), 400, 'bad_request');
    expectError(
      await h.api('POST', '/api/sessions/ses_missing/branch', { turn_id: turns[0]!.id }),
      404,
      'not_found',
    );
  });

  it('exports Markdown by default, as a download', async () => {
    const res = await raw(`/api/sessions/${sessionId}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.md"$/);
    const text = await res.text();
    expect(text).toContain('> count to 2');
    expect(text).toContain('"command": "echo counted-2"');
    expect(text).toContain('counted-2\n');
    expect(text).toContain('Counted 2.');
  });

  it('imports a JSON export as a new session that reads the same through the API', async () => {
    const res = await raw(`/api/sessions/${sessionId}/export?format=json`);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/);
    const data = SessionExport.parse(await res.json());
    // A body past the server's usual 10 MB limit: this route takes exports up to theirs.
    data.artifacts.push({
      id: 'art_big',
      kernel: 'default',
      execution_id: null,
      mime: 'image/png',
      data_base64: 'A'.repeat(11 * 1024 * 1024),
    });
    const imported = await h.api<Session>('POST', `/api/sessions/import?project_id=${projectId}`, data);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(201);
    expect(imported.body.project_id).toBe(projectId);
    const back = await turnsOf(imported.body.id);
    expect(back.map((t) => [t.prompt, t.status, t.messages.length, t.tool_calls.map((c) => c.name)])).toEqual(
      turns.map((t) => [t.prompt, t.status, t.messages.length, t.tool_calls.map((c) => c.name)]),
    );
    const call = await h.api<ToolCallWithResult>('GET', `/api/tool-calls/${back[1]!.tool_calls[0]!.id}`);
    expect(call.body.result).toContain('counted-2');
    const events = await h.events(imported.body.id);
    expect(events.map((e) => e.type)).toEqual((await h.events(sessionId)).map((e) => e.type));

    expectError(await h.api('POST', '/api/sessions/import', { format: 'cairn.session' }), 400, 'bad_request');
    expect(
      expectError(await h.api('POST', '/api/sessions/import', { ...data, turns: 'no' }), 400, 'bad_request'),
    ).toContain('turns');
    expectError(await h.api('POST', '/api/sessions/import?project_id=prj_missing', data), 404, 'not_found');
  });

  it('goes through auth like every route', async () => {
    const none = { authorization: '' };
    expect(
      (await h.api('POST', `/api/sessions/${sessionId}/branch`, { turn_id: turns[0]!.id }, none)).status,
    ).toBe(401);
    expect(
      (await h.api('GET', `/api/sessions/${sessionId}/export?format=json`, undefined, none)).status,
    ).toBe(401);
    expect((await h.api('POST', '/api/sessions/import', {}, none)).status).toBe(401);
  });
});
