import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkPrompt } from '../../src/application/forks/fork-prompt';
import type { Experience, ForkInfo, SessionDetail, SessionList, Turn, TurnPage } from '../../src/protocol';
import { forkCall, forkScript, PARENT, spawn, text, withoutCacheMarks } from '../support/fork-script';
import { type Harness, startHarness, tempDir } from '../support/harness';
import { type RecordedRequest, systemText } from '../support/model-server';
import { lastToolResults } from '../support/tool-results';

/**
 * Forks through the real agent loop, store and API: each fork is a child session whose first request is
 * its parent's messages before the spawning request plus its task, run a few at a time, gathered by the
 * turn that spawned it, and ended with that turn. The scripted model answers each conversation in turn.
 */
describe('forks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    fs.writeFileSync(path.join(h.projectDir, 'notes.txt'), 'NOTE-ONE\nNOTE-TWO\n');
    fs.writeFileSync(path.join(h.projectDir, 'later.txt'), 'LATER-CONTENT\n');
  });
  afterAll(async () => h?.close());

  const detail = async (id: string) => (await h.api<SessionDetail>('GET', `/api/sessions/${id}`)).body;
  const statusByTask = async (id: string) =>
    Object.fromEntries((await detail(id)).forks.map((f) => [f.task, f.status]));
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const forkUpdates = async (sessionId: string) =>
    (await h.events(sessionId)).flatMap((e) => (e.type === 'fork.updated' ? [e.fork] : []));
  const turnsOf = async (sessionId: string): Promise<Turn[]> =>
    (await h.api<TurnPage>('GET', `/api/sessions/${sessionId}/turns`)).body.turns;
  /** The JSON a tool answered, as the model read it in this request. */
  const answerIn = (req: RecordedRequest, index = 0) => JSON.parse(lastToolResults(req)[index]!.content);
  const read = (file: string) => ({ type: 'tool_use', name: 'Read', input: { path: file } }) as const;

  it("starts from the parent's messages before the spawning request; its own edits never reach the parent", async () => {
    const s = forkScript(h.model);
    const { projectId, sessionId } = await h.newSession();
    s.parent(text('Hello, ready.'));
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'hello')).id);
    await h.api('POST', `/api/sessions/${sessionId}/experiences`, { text: 'parent session note' });
    const projectNote = (
      await h.api<Experience>('POST', `/api/projects/${projectId}/experiences`, { text: 'project note' })
    ).body;
    s.parent(
      { content: [{ type: 'text', text: 'Reading first.' }, read('notes.txt')] },
      { content: [spawn('alpha', 'Count the notes.')] },
      { content: [{ type: 'text', text: 'Meanwhile, more.' }, read('later.txt')] },
      forkCall('gather_all', { include_history: true }),
      text('All gathered.'),
    );
    s.fork(
      'alpha',
      {
        content: [
          {
            type: 'tool_use',
            name: 'Context',
            input: { method: 'remember', arguments: { text: 'fork-only fact' } },
          },
          {
            type: 'tool_use',
            name: 'Context',
            input: { method: 'remember', arguments: { text: 'fork project fact', scope: 'project' } },
          },
          {
            type: 'tool_use',
            name: 'Context',
            input: { method: 'forget', arguments: { id: projectNote.id } },
          },
        ],
      },
      text('alpha result: 2 notes'),
    );
    const turn = await h.startTurn(sessionId, 'investigate');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const parent = s.requests(PARENT);
    const { fork_id: forkId } = answerIn(parent[3]!);
    // The fork's first request: the spawning request's messages, and its task in the same user message.
    const expected = withoutCacheMarks(parent[2]!.body.messages) as { role: string; content: unknown[] }[];
    expected.at(-1)!.content.push({ type: 'text', text: forkPrompt('alpha', 'Count the notes.') });
    const [first, second] = s.requests('alpha');
    expect(withoutCacheMarks(first!.body.messages)).toEqual(expected);
    expect(JSON.stringify(first!.body.messages)).not.toContain('Meanwhile, more.');
    expect(systemText(first!.body)).toContain('parent session note');

    // Its session memory is its own; its parent's project memory it may not change.
    const [own, project, forget] = lastToolResults(second!);
    expect(own!.is_error).toBeUndefined();
    expect(project).toMatchObject({ is_error: true });
    expect(project!.content).toContain("A fork cannot change its parent's project experiences");
    expect(forget).toMatchObject({ is_error: true });
    expect(forget!.content).toContain("A fork can forget only its own session's experiences");
    expect(systemText(second!.body)).toContain('fork-only fact');
    const last = parent.at(-1)!;
    expect(systemText(last.body)).not.toContain('fork-only fact');
    const experiences = async (route: string) =>
      (await h.api<{ experiences: Experience[] }>('GET', route)).body.experiences.map((e) => e.text);
    expect(await experiences(`/api/sessions/${sessionId}/experiences`)).toEqual([
      'parent session note',
      'project note',
    ]);
    expect(await experiences(`/api/sessions/${forkId}/experiences`)).toEqual([
      'parent session note',
      'project note',
      'fork-only fact',
    ]);
    await h.api('DELETE', `/api/experiences/${projectNote.id}`);
    const versions = await h.api<{ versions: unknown[] }>(
      'GET',
      `/api/sessions/${sessionId}/context/versions`,
    );
    expect(versions.body.versions).toHaveLength(1);

    // gather_all: the final reply, and with include_history the fork's own turn.
    const gathered = answerIn(last);
    expect(Object.keys(gathered)).toEqual([forkId]);
    expect(gathered[forkId]).toMatchObject({ status: 'completed', response: 'alpha result: 2 notes' });
    expect(gathered[forkId].history[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: forkPrompt('alpha', 'Count the notes.') }],
    });
    expect(gathered[forkId].history.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'alpha result: 2 notes' }],
    });

    // The parent lists it; the fork names its parent and runs nothing but its task.
    const parentDetail = await detail(sessionId);
    expect(parentDetail.forks).toEqual<ForkInfo[]>([
      {
        fork_id: forkId,
        turn_id: turn.id,
        task: 'alpha',
        status: 'completed',
        response: 'alpha result: 2 notes',
        created_at: expect.any(String),
      },
    ]);
    expect(await detail(forkId)).toMatchObject({
      parent_session_id: sessionId,
      parent_turn_id: turn.id,
      title: 'Fork: alpha',
      forks: [],
    });
    expect((await forkUpdates(sessionId)).map((f) => f.status)).toEqual(['running', 'completed']);
    const listed = async (query: string) =>
      (await h.api<SessionList>('GET', `/api/sessions${query}`)).body.sessions.map((x) => x.id);
    expect(await listed('')).not.toContain(forkId);
    expect(await listed('?include_forks=true')).toContain(forkId);
    const refused = await h.api<{ error: { code: string; message: string } }>(
      'POST',
      `/api/sessions/${forkId}/turns`,
      { prompt: 'more', request_id: 'r-fork' },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict' });
    expect(refused.body.error.message).toContain('A fork runs only its task; it is read-only');
  });

  it('runs 4 forks of a turn at once and queues the rest; a queued one starts from its spawn-time snapshot', async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    const tasks = ['c1', 'c2', 'c3', 'c4', 'c5'];
    s.parent(
      { content: tasks.map((t) => spawn(t)) },
      { content: [{ type: 'text', text: 'While they work.' }, read('later.txt')] },
      forkCall('gather_all'),
      text('Five gathered.'),
    );
    const turn = await h.startTurn(sessionId, 'split the work');
    // The parent reads on and waits in gather_all, while 4 forks wait for the model and one waits its turn.
    await s.waitForRequests(PARENT, 3);
    const statuses = await until(
      () => statusByTask(sessionId),
      (map) => Object.values(map).filter((x) => x === 'running').length === 4,
    );
    const queued = tasks.filter((t) => statuses[t] === 'queued');
    expect(queued).toHaveLength(1);
    const running = tasks.filter((t) => statuses[t] === 'running');
    await Promise.all(running.map((t) => s.waitForRequests(t, 1)));
    expect(s.requests(queued[0]!)).toHaveLength(0);

    // One ends: the queued one starts, from the parent as it was at the spawn, not as it is now.
    s.fork(running[0]!, text(`${running[0]} done`));
    await s.waitForRequests(queued[0]!, 1);
    const late = withoutCacheMarks(s.requests(queued[0]!)[0]!.body.messages);
    const early = withoutCacheMarks(s.requests(running[0]!)[0]!.body.messages);
    expect(JSON.stringify(late)).not.toContain('LATER-CONTENT');
    expect(JSON.stringify(late)).not.toContain('While they work.');
    const withoutTask = (messages: unknown[]) =>
      (messages as { content: unknown[] }[]).map((m, i, all) =>
        i === all.length - 1 ? m.content.slice(0, -1) : m.content,
      );
    expect(withoutTask(late)).toEqual(withoutTask(early));

    for (const t of tasks) if (t !== running[0]) s.fork(t, text(`${t} done`));
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const gathered = answerIn(s.requests(PARENT)[3]!);
    expect(
      Object.values(gathered)
        .map((g) => (g as { response: string }).response)
        .sort(),
    ).toEqual(tasks.map((t) => `${t} done`));
    const updates = await forkUpdates(sessionId);
    expect(updates.filter((f) => f.task === queued[0]).map((f) => f.status)).toEqual([
      'queued',
      'running',
      'completed',
    ]);
  });

  it('gather_all with a timeout reports the forks still running; status, cancel, and the turn’s end cancels the rest', async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    const ids: Record<string, string> = {};
    s.parent(
      { content: [spawn('quick'), spawn('slow1'), spawn('slow2')] },
      {
        kind: 'handler',
        handle: async () => {
          // The quick one has ended; the slow ones wait for a model reply that never comes.
          await h.waitForEvent(
            sessionId,
            (e) => e.type === 'fork.updated' && e.fork.task === 'quick' && e.fork.status === 'completed',
          );
          for (const f of (await detail(sessionId)).forks) ids[f.task] = f.fork_id;
          return forkCall('gather_all', { timeout_s: 0.2 });
        },
      },
      { kind: 'handler', handle: () => forkCall('status', { fork_id: ids.slow1 }) },
      { kind: 'handler', handle: () => forkCall('cancel', { fork_id: ids.slow1 }) },
      forkCall('status', { fork_id: 'ses_not_a_fork_of_mine' }),
      text('Leaving slow2 behind.'),
    );
    s.fork('quick', text('quick done'));
    const turn = await h.startTurn(sessionId, 'race');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const parent = s.requests(PARENT);
    expect(answerIn(parent[2]!)).toEqual({
      [ids.quick!]: { status: 'completed', response: 'quick done' },
      [ids.slow1!]: { status: 'running', response: null, timed_out: true },
      [ids.slow2!]: { status: 'running', response: null, timed_out: true },
    });
    expect(answerIn(parent[3]!)).toMatchObject({ fork_id: ids.slow1, task: 'slow1', status: 'running' });
    expect(answerIn(parent[4]!)).toMatchObject({ fork_id: ids.slow1, status: 'cancelled' });
    expect(lastToolResults(parent[5]!)[0]).toMatchObject({ is_error: true });
    expect(lastToolResults(parent[5]!)[0]!.content).toContain('Fork ses_not_a_fork_of_mine does not exist');

    expect(await statusByTask(sessionId)).toEqual({
      quick: 'completed',
      slow1: 'cancelled',
      slow2: 'cancelled',
    });
    expect((await turnsOf(ids.slow2!)).map((t) => t.status)).toEqual(['cancelled']);
    // The parent's journal tells the fork's end before its own.
    const events = await h.events(sessionId);
    const slow2End = events.find(
      (e) => e.type === 'fork.updated' && e.fork.task === 'slow2' && e.fork.status === 'cancelled',
    );
    const end = events.find((e) => e.type === 'turn.completed');
    expect(slow2End!.seq).toBeLessThan(end!.seq);
  });

  it("cancelling the parent's turn cancels its running and queued forks", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    const tasks = ['d1', 'd2', 'd3', 'd4', 'd5'];
    s.parent({ content: tasks.map((t) => spawn(t)) }, forkCall('gather_all'));
    const turn = await h.startTurn(sessionId, 'then stop');
    await s.waitForRequests(PARENT, 2);
    const statuses = await until(
      () => statusByTask(sessionId),
      (map) => Object.values(map).filter((x) => x === 'running').length === 4,
    );
    const queued = tasks.find((t) => statuses[t] === 'queued')!;

    const cancelled = await h.api<Turn>('POST', `/api/turns/${turn.id}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    const forks = (await detail(sessionId)).forks;
    expect(forks.map((f) => f.status)).toEqual(tasks.map(() => 'cancelled'));
    for (const fork of forks) {
      const turns = (await turnsOf(fork.fork_id)).map((t) => t.status);
      expect(turns).toEqual(fork.task === queued ? [] : ['cancelled']);
    }
    const last = new Map<string, string>();
    for (const f of await forkUpdates(sessionId)) last.set(f.task, f.status);
    expect([...last.values()]).toEqual(tasks.map(() => 'cancelled'));
  });

  it('deleting the parent deletes its forks, their turns stopped and their files gone', async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    s.parent({ content: [spawn('doomed')] }, forkCall('gather_all'));
    s.fork('doomed', { content: [read('notes.txt')] });
    await h.startTurn(sessionId, 'spawn and wait');
    await s.waitForRequests('doomed', 2);
    const [fork] = (await detail(sessionId)).forks;
    const forkDir = path.join(h.dataDir, 'sessions', fork!.fork_id);
    expect(fs.existsSync(forkDir)).toBe(true);

    expect((await h.api('DELETE', `/api/sessions/${sessionId}`)).status).toBe(204);
    expect((await h.api('GET', `/api/sessions/${fork!.fork_id}`)).status).toBe(404);
    expect((await h.api('GET', `/api/sessions/${sessionId}`)).status).toBe(404);
    const all = (await h.api<SessionList>('GET', '/api/sessions?include_forks=true')).body.sessions;
    expect(all.map((x) => x.id)).not.toContain(fork!.fork_id);
    expect(fs.existsSync(forkDir)).toBe(false);
    expect(h.server.core.runtime.isSessionRunning(fork!.fork_id)).toBe(false);
  });

  it('deleting the project deletes the forks of its sessions, queued ones too', async () => {
    const s = forkScript(h.model);
    const folder = tempDir('fork-project');
    const project = await h.api<{ id: string }>('POST', '/api/projects', { path: folder });
    const session = await h.api<{ id: string }>('POST', '/api/sessions', { project_id: project.body.id });
    const sessionId = session.body.id;
    const tasks = ['p1', 'p2', 'p3', 'p4', 'p5'];
    s.parent({ content: tasks.map((t) => spawn(t)) }, forkCall('gather_all'));
    await h.startTurn(sessionId, 'spawn and wait');
    await s.waitForRequests(PARENT, 2);
    await until(
      () => statusByTask(sessionId),
      (map) => Object.values(map).filter((x) => x === 'running').length === 4,
    );
    const forkIds = (await detail(sessionId)).forks.map((f) => f.fork_id);

    expect((await h.api('DELETE', `/api/projects/${project.body.id}`)).status).toBe(204);
    for (const id of [sessionId, ...forkIds]) {
      expect((await h.api('GET', `/api/sessions/${id}`)).status).toBe(404);
      expect(h.server.core.runtime.isSessionRunning(id)).toBe(false);
    }
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("a fork reads its parent's result files (the stubs of the context it started from name them)", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    s.parent(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo PARENT-RESULT-42' } }] },
      text('ran'),
    );
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'run it')).id);
    const [call] = h.server.core.store.toolCalls
      .forTurns((await turnsOf(sessionId)).map((t) => t.id))
      .values()
      .next().value!;
    const file = path.join(h.dataDir, 'sessions', sessionId, 'tool-calls', call!.id, 'result.txt');
    const other = (await h.newSession()).sessionId;
    s.parent(
      { content: [spawn('peek', 'Read the earlier result.', ['Read'])] },
      forkCall('gather_all'),
      text('ok'),
    );
    s.fork('peek', { content: [read(file)] }, text('peeked'));
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'peek')).id);
    const [inFork] = lastToolResults(s.requests('peek')[1]!);
    expect(inFork).not.toMatchObject({ is_error: true });
    expect(inFork!.content).toContain('PARENT-RESULT-42');

    // Another session, not a fork of it, may not.
    s.parent({ content: [read(file)] }, text('no'));
    await h.waitForTurnEnd((await h.startTurn(other, 'peek too')).id);
    const [outside] = lastToolResults(s.requests(PARENT).at(-1)!);
    expect(outside).toMatchObject({ is_error: true });
  });

  it('a fork gets the tools it is given, never Fork; an unknown name is refused with the list', async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    s.parent(
      {
        content: [
          spawn('reader', 'Read the notes.', ['Read']),
          spawn('full'),
          spawn('wrong', 'Nothing.', ['Read', 'Teleport']),
        ],
      },
      forkCall('gather_all'),
      text('Done.'),
    );
    s.fork('reader', text('read'));
    s.fork('full', forkCall('spawn', { task: 'grandchild', instruction: 'No.' }), text('full done'));
    const turn = await h.startTurn(sessionId, 'tools');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const names = (req: RecordedRequest) => (req.body.tools ?? []).map((t) => t.name);
    const parentTools = names(s.requests(PARENT)[0]!);
    expect(parentTools).toContain('Fork');
    expect(names(s.requests('reader')[0]!)).toEqual(['Read']);
    expect(names(s.requests('full')[0]!)).toEqual(parentTools.filter((n) => n !== 'Fork'));
    expect(lastToolResults(s.requests('full')[1]!)[0]!.content).toContain('There is no tool named Fork');
    const [, , wrong] = lastToolResults(s.requests(PARENT)[1]!);
    expect(wrong).toMatchObject({ is_error: true });
    expect(wrong!.content).toContain('not Teleport');
    expect(wrong!.content).toMatch(/Available: .*Read/);
    expect((await detail(sessionId)).forks.map((f) => f.task)).toEqual(['reader', 'full']);
  });
});
