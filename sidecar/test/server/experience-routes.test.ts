// Experiences through the API: a session's and a project's lists, scope rules, moves, deletes, the events
// each sends, and the system prompt the agent then gets.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, Experience, ExperienceList } from '../../src/protocol';
import { done, script } from '../support/context-script';
import { type Harness, startHarness, tempDir } from '../support/harness';
import { systemText } from '../support/model-server';

describe('experiences over the API', () => {
  let h: Harness;
  let projectId: string;
  let first: string;
  let second: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ projectId, sessionId: first } = await h.newSession());
    ({ sessionId: second } = await h.newSession());
  });
  afterAll(async () => h?.close());

  const list = async (route: string) => (await h.api<ExperienceList>('GET', route)).body.experiences;
  const texts = async (route: string) => (await list(route)).map((e) => e.text);
  const experienceEvents = async (sessionId: string) =>
    (await h.events(sessionId)).filter((e: CairnEvent) => e.type.startsWith('experience.'));

  it('adds to a session or to its project; each session sees its own and the project’s', async () => {
    const own = await h.api<Experience>('POST', `/api/sessions/${first}/experiences`, {
      text: '  tests run with npm test  ',
    });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      scope: 'session',
      session_id: first,
      project_id: projectId,
      text: 'tests run with npm test',
      author: 'user',
    });
    const shared = await h.api<Experience>('POST', `/api/sessions/${first}/experiences`, {
      text: 'the API lives in sidecar/src/server',
      scope: 'project',
    });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ scope: 'project', session_id: null, project_id: projectId });
    const direct = await h.api<Experience>('POST', `/api/projects/${projectId}/experiences`, {
      text: 'never push to main',
    });
    expect(direct.status).toBe(201);
    expect(direct.body).toMatchObject({ scope: 'project', author: 'user' });

    expect(await texts(`/api/sessions/${first}/experiences`)).toEqual([
      'tests run with npm test',
      'the API lives in sidecar/src/server',
      'never push to main',
    ]);
    expect(await texts(`/api/sessions/${second}/experiences`)).toEqual([
      'the API lives in sidecar/src/server',
      'never push to main',
    ]);
    expect(await texts(`/api/projects/${projectId}/experiences`)).toEqual([
      'the API lives in sidecar/src/server',
      'never push to main',
    ]);
    // The session's own went to it alone; the project's to every session of the project.
    expect((await experienceEvents(first)).map((e) => e.type)).toEqual([
      'experience.added',
      'experience.added',
      'experience.added',
    ]);
    expect(
      (await experienceEvents(second)).map((e) => (e as { experience: Experience }).experience.text),
    ).toEqual(['the API lives in sidecar/src/server', 'never push to main']);
  });

  it('edits, moves between scopes, and deletes — telling every session that saw it', async () => {
    const created = (
      await h.api<Experience>('POST', `/api/projects/${projectId}/experiences`, { text: 'use pnpm' })
    ).body;
    const edited = await h.api<Experience>('PATCH', `/api/experiences/${created.id}`, { text: 'use npm' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ text: 'use npm', scope: 'project' });

    const noSession = await h.api<{ error: { code: string; message: string } }>(
      'PATCH',
      `/api/experiences/${created.id}`,
      { scope: 'session' },
    );
    expect(noSession.status).toBe(400);
    expect(noSession.body.error.message).toContain('session_id');

    const before = (await h.events(second)).length;
    const moved = await h.api<Experience>('PATCH', `/api/experiences/${created.id}`, {
      scope: 'session',
      session_id: first,
    });
    expect(moved.body).toMatchObject({ scope: 'session', session_id: first, text: 'use npm' });
    expect(await texts(`/api/sessions/${second}/experiences`)).not.toContain('use npm');
    expect(await texts(`/api/sessions/${first}/experiences`)).toContain('use npm');
    // The session that lost it hears so: the update names the new scope.
    const heard = (await h.events(second, before)).filter((e) => e.type === 'experience.updated');
    expect(heard.map((e) => (e as { experience: Experience }).experience.scope)).toEqual(['session']);

    const back = await h.api<Experience>('PATCH', `/api/experiences/${created.id}`, { scope: 'project' });
    expect(back.body).toMatchObject({ scope: 'project', session_id: null });
    expect(await texts(`/api/sessions/${second}/experiences`)).toContain('use npm');

    const removed = await h.api('DELETE', `/api/experiences/${created.id}`);
    expect(removed.status).toBe(204);
    expect(await texts(`/api/projects/${projectId}/experiences`)).not.toContain('use npm');
    for (const sessionId of [first, second]) {
      const events = await experienceEvents(sessionId);
      expect(events.at(-1)).toMatchObject({ type: 'experience.removed', experience_id: created.id });
    }
    expect((await h.api('DELETE', `/api/experiences/${created.id}`)).status).toBe(404);
  });

  it('keeps an experience within its project, and refuses what cannot be', async () => {
    const otherDir = tempDir('cairn-other-project-');
    fs.writeFileSync(`${otherDir}/x.txt`, 'x');
    const other = await h.api<{ id: string }>('POST', '/api/projects', { path: otherDir });
    const otherSession = await h.api<{ id: string }>('POST', '/api/sessions', { project_id: other.body.id });
    const mine = (
      await h.api<Experience>('POST', `/api/sessions/${first}/experiences`, { text: 'mine alone' })
    ).body;
    const across = await h.api<{ error: { code: string } }>('PATCH', `/api/experiences/${mine.id}`, {
      session_id: otherSession.body.id,
    });
    expect(across.status).toBe(400);
    expect(await texts(`/api/sessions/${otherSession.body.id}/experiences`)).toEqual([]);

    // Two chats without a project share nothing either.
    const chatA = (await h.api<{ id: string }>('POST', '/api/sessions', {})).body.id;
    const chatB = (await h.api<{ id: string }>('POST', '/api/sessions', {})).body.id;
    const chatFact = (
      await h.api<Experience>('POST', `/api/sessions/${chatA}/experiences`, { text: 'chat only' })
    ).body;
    expect(
      (await h.api('PATCH', `/api/experiences/${chatFact.id}`, { scope: 'session', session_id: chatB }))
        .status,
    ).toBe(400);
    expect(await texts(`/api/sessions/${chatB}/experiences`)).toEqual([]);
    // A session named without moving into session scope would be ignored: it is refused instead.
    const shared = (
      await h.api<Experience>('POST', `/api/projects/${projectId}/experiences`, { text: 'for all' })
    ).body;
    const ignored = await h.api<{ error: { message: string } }>('PATCH', `/api/experiences/${shared.id}`, {
      session_id: first,
    });
    expect(ignored.status).toBe(400);
    expect(ignored.body.error.message).toContain('"scope": "session"');

    for (const [method, route, body] of [
      ['POST', `/api/sessions/${first}/experiences`, { text: '   ' }],
      ['POST', `/api/sessions/${first}/experiences`, { text: 'x'.repeat(4001) }],
      ['POST', `/api/sessions/${first}/experiences`, { text: 'ok', scope: 'global' }],
      ['POST', `/api/projects/${projectId}/experiences`, { text: 'ok', scope: 'session' }],
      ['PATCH', `/api/experiences/${mine.id}`, { text: '' }],
    ] as const) {
      const res = await h.api<{ error: { code: string } }>(method, route, body);
      expect(res.status, `${method} ${route} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
    expect((await h.api('GET', '/api/sessions/nope/experiences')).status).toBe(404);
    expect((await h.api('GET', '/api/projects/nope/experiences')).status).toBe(404);
    expect((await h.api('PATCH', '/api/experiences/nope', { text: 'x' })).status).toBe(404);
    // Nothing refused was written.
    expect(await texts(`/api/sessions/${first}/experiences`)).not.toContain('ok');
  });

  it('a project experience outlives the session it was added in', async () => {
    const { sessionId } = await h.newSession();
    await h.api('POST', `/api/sessions/${sessionId}/experiences`, { text: 'kept for all', scope: 'project' });
    await h.api('POST', `/api/sessions/${sessionId}/experiences`, { text: 'gone with it' });
    expect((await h.api('DELETE', `/api/sessions/${sessionId}`)).status).toBe(204);
    const all = await texts(`/api/projects/${projectId}/experiences`);
    expect(all).toContain('kept for all');
    expect(await texts(`/api/sessions/${first}/experiences`)).not.toContain('gone with it');
  });

  it('ends the agent’s system prompt with what the user added', async () => {
    const { sessionId } = await h.newSession();
    const added = (
      await h.api<Experience>('POST', `/api/sessions/${sessionId}/experiences`, {
        text: 'answer in <b>French</b> & briefly',
      })
    ).body;
    const run = script(h, [done('Bien.')]);
    const turn = await h.startTurn(sessionId, 'hello');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const system = systemText(run.agent()[0]!.body);
    expect(system).toContain(`<exp id="${added.id}">answer in &lt;b&gt;French&lt;/b&gt; &amp; briefly</exp>`);
    expect(system.trimEnd().endsWith('</experiences>')).toBe(true);
  });
});
