import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CairnEvent, NewEvent } from '../../src/protocol';
import { Store } from '../../src/store/store';

let dataDir: string;
let store: Store;

beforeEach(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-store-')));
  store = Store.open(dataDir);
});

afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function reopen(): void {
  store.close();
  store = Store.open(dataDir);
}

function newSession(projectId: string | null = null): string {
  return store.sessions.create({ projectId }).id;
}

const delta = (turnId: string | null, text: string): NewEvent => ({
  type: 'message.delta',
  turn_id: turnId,
  index: 0,
  text,
});

const textOf = (e: CairnEvent): string => (e.type === 'message.delta' ? e.text : '');

const count = (table: string, where: string, ...params: unknown[]): number =>
  (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number }).n;

/** A session with a turn, its messages, events, a tool call and a question: everything that hangs off it. */
function fullSession(projectId: string | null): { sessionId: string; turnId: string } {
  const sessionId = newSession(projectId);
  const turn = store.turns.create(sessionId, `req-${sessionId}`, 'list the files');
  store.messages.append({
    sessionId,
    turnId: turn.id,
    role: 'user',
    content: [{ type: 'text', text: 'hi' }],
  });
  store.messages.append({
    sessionId,
    turnId: turn.id,
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } }],
  });
  store.events.append(sessionId, {
    type: 'turn.started',
    turn_id: turn.id,
    ordinal: turn.ordinal,
    prompt: 'hi',
  });
  store.events.append(sessionId, delta(turn.id, 'hello'));
  const call = store.toolCalls.create({
    sessionId,
    turnId: turn.id,
    toolUseId: 'toolu_1',
    name: 'bash',
    input: { command: 'ls' },
    status: 'waiting_approval',
  });
  store.questions.create({
    sessionId,
    turnId: turn.id,
    toolCallId: call.id,
    kind: 'approval',
    question: 'Run ls?',
    options: ['allow', 'deny'],
    tool: { name: 'bash', input: { command: 'ls' } },
  });
  return { sessionId, turnId: turn.id };
}

const CHILD_TABLES = ['turns', 'messages', 'events', 'tool_calls', 'questions', 'context_versions'] as const;
const NONE = Object.fromEntries(CHILD_TABLES.map((t) => [t, 0]));

function childRows(sessionId: string): Record<string, number> {
  return Object.fromEntries(CHILD_TABLES.map((t) => [t, count(t, 'session_id = ?', sessionId)]));
}

describe('event journal', () => {
  it('numbers events per session from 1 without gaps, with sessions interleaved', () => {
    const a = newSession();
    const b = newSession();
    const seqs: Record<string, number[]> = { [a]: [], [b]: [] };
    const order = [a, b, b, a, a, b, a, b, b, b, a];
    for (const [i, id] of order.entries()) seqs[id]!.push(store.events.append(id, delta(null, `e${i}`)).seq);
    const expected = (id: string) => order.filter((x) => x === id).map((_, i) => i + 1);
    expect(seqs[a]).toEqual(expected(a));
    expect(seqs[b]).toEqual(expected(b));
    expect(store.events.after(a, 0).map((e) => e.seq)).toEqual(expected(a));
    expect(store.events.after(b, 0).map((e) => e.seq)).toEqual(expected(b));
    expect(store.events.after(a, 0).every((e) => e.session_id === a)).toBe(true);
    // What was appended to a session is what it reads back, in order.
    expect(store.events.after(b, 0).map(textOf)).toEqual(order.flatMap((x, i) => (x === b ? [`e${i}`] : [])));
  });

  it('gives listeners the event as stored, after it is stored', () => {
    const sessionId = newSession();
    const turn = store.turns.create(sessionId, 'r1', 'p');
    const heard: CairnEvent[] = [];
    const inJournalWhenHeard: boolean[] = [];
    const off = store.events.subscribe((event) => {
      heard.push(event);
      inJournalWhenHeard.push(store.events.after(sessionId, event.seq - 1).some((e) => e.seq === event.seq));
    });
    const returned = store.events.append(sessionId, {
      type: 'turn.started',
      turn_id: turn.id,
      ordinal: turn.ordinal,
      prompt: 'p',
    });
    store.events.append(sessionId, delta(turn.id, 'chunk'));
    store.events.append(sessionId, { type: 'turn.completed', turn_id: turn.id, usage: null });
    expect(heard).toHaveLength(3);
    expect(heard[0]).toEqual(returned);
    expect(heard).toEqual(store.events.after(sessionId, 0));
    expect(heard[1]).toMatchObject({
      type: 'message.delta',
      seq: 2,
      session_id: sessionId,
      turn_id: turn.id,
      index: 0,
      text: 'chunk',
    });
    expect(typeof heard[1]!.time).toBe('string');
    expect(inJournalWhenHeard).toEqual([true, true, true]);

    off();
    store.events.append(sessionId, delta(turn.id, 'unheard'));
    expect(heard).toHaveLength(3);
  });

  it('keeps going when a listener throws', () => {
    const sessionId = newSession();
    const heard: number[] = [];
    store.events.subscribe(() => {
      throw new Error('closed socket');
    });
    store.events.subscribe((e) => heard.push(e.seq));
    expect(store.events.append(sessionId, delta(null, 'a')).seq).toBe(1);
    expect(store.events.append(sessionId, delta(null, 'b')).seq).toBe(2);
    expect(heard).toEqual([1, 2]);
  });

  it('reads events after a sequence number, with a limit', () => {
    const sessionId = newSession();
    for (let i = 0; i < 10; i++) store.events.append(sessionId, delta(null, `t${i}`));
    expect(store.events.after(sessionId, 0).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(store.events.after(sessionId, 7).map((e) => e.seq)).toEqual([8, 9, 10]);
    expect(store.events.after(sessionId, 10)).toEqual([]);
    expect(store.events.after(sessionId, 2, 3).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(store.events.after('ses_missing', 0)).toEqual([]);
  });

  it('refuses an event for a session that does not exist', () => {
    expect(() => store.events.append('ses_missing', delta(null, 'x'))).toThrow(/does not exist/);
  });

  it('lets listeners hear a transaction’s events only once it commits, and never a rolled-back one', () => {
    const sessionId = newSession();
    const heard: number[] = [];
    store.events.subscribe((e) => heard.push(e.seq));

    store.transaction(() => {
      store.events.append(sessionId, delta(null, 'one'));
      store.transaction(() => store.events.append(sessionId, delta(null, 'two')));
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([1, 2]);

    expect(() =>
      store.transaction(() => {
        store.events.append(sessionId, delta(null, 'lost'));
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(heard).toEqual([1, 2]);

    // An inner rollback the outer transaction survives drops only the inner events.
    store.transaction(() => {
      store.events.append(sessionId, delta(null, 'kept'));
      try {
        store.transaction(() => {
          store.events.append(sessionId, delta(null, 'inner lost'));
          throw new Error('inner');
        });
      } catch {
        // the outer transaction goes on
      }
    });
    const stored = store.events.after(sessionId, 0);
    expect(stored.map(textOf)).toEqual(['one', 'two', 'kept']);
    expect(stored.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(heard).toEqual([1, 2, 3]);
  });
});

describe('turns', () => {
  it('pages 65 turns newest first as 30/30/5, oldest first within a page', () => {
    const sessionId = newSession();
    const other = newSession();
    store.transaction(() => {
      for (let i = 1; i <= 65; i++) {
        store.turns.create(sessionId, `req-${i}`, `prompt ${i}`);
        if (i % 10 === 0) store.turns.create(other, `req-${i}`, 'other session');
      }
    });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

    const first = store.turns.page(sessionId, 30);
    expect(first.turns.map((t) => t.ordinal)).toEqual(range(36, 65));
    expect(first.turns.map((t) => t.prompt)).toEqual(range(36, 65).map((i) => `prompt ${i}`));
    expect(first.turns.every((t) => t.session_id === sessionId)).toBe(true);
    expect(first.nextBefore).toBe(36);

    const second = store.turns.page(sessionId, 30, first.nextBefore!);
    expect(second.turns.map((t) => t.ordinal)).toEqual(range(6, 35));
    expect(second.nextBefore).toBe(6);

    const third = store.turns.page(sessionId, 30, second.nextBefore!);
    expect(third.turns.map((t) => t.ordinal)).toEqual(range(1, 5));
    expect(third.nextBefore).toBeNull();

    expect(store.turns.page(other, 30).turns.map((t) => t.ordinal)).toEqual(range(1, 6));
    expect(store.turns.page(other, 30).nextBefore).toBeNull();
    expect(store.turns.page(sessionId, 30, 1)).toEqual({ turns: [], nextBefore: null });
    expect(store.turns.page(newSession(), 30)).toEqual({ turns: [], nextBefore: null });
    // Exactly a page left: no next page.
    expect(store.turns.page(sessionId, 35, 36).nextBefore).toBeNull();
  });

  it('numbers turns per session and keeps request_id unique within a session only', () => {
    const a = newSession();
    const b = newSession();
    const first = store.turns.create(a, 'req-1', 'hello');
    expect(first).toMatchObject({
      ordinal: 1,
      status: 'running',
      request_id: 'req-1',
      error: null,
      usage: null,
    });
    expect(() => store.turns.create(a, 'req-1', 'hello again')).toThrow(/UNIQUE/);
    expect(store.turns.create(b, 'req-1', 'hello').ordinal).toBe(1);
    expect(store.turns.create(a, 'req-2', 'next').ordinal).toBe(2);
    expect(store.turns.byRequestId(a, 'req-1')?.id).toBe(first.id);
    expect(store.turns.byRequestId(b, 'req-2')).toBeNull();
    expect(count('turns', 'session_id = ?', a)).toBe(2);
  });

  it('finishes a running turn once, with usage and error', () => {
    const sessionId = newSession();
    const turn = store.turns.create(sessionId, 'r', 'p');
    expect(store.turns.running(sessionId)?.id).toBe(turn.id);
    expect(store.sessions.get(sessionId)?.running_turn_id).toBe(turn.id);
    const cache = { cache_read_input_tokens: 100, cache_creation_input_tokens: 7 };
    store.turns.addUsage(turn.id, { input_tokens: 10, output_tokens: 3, ...cache });
    store.turns.addUsage(turn.id, { input_tokens: 5, output_tokens: 2, ...cache });
    const failed = store.turns.finish(turn.id, 'failed', { code: 'model_error', message: 'boom' });
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'model_error', message: 'boom' },
      usage: {
        input_tokens: 15,
        output_tokens: 5,
        cache_read_input_tokens: 200,
        cache_creation_input_tokens: 14,
      },
    });
    expect(failed.finished_at).not.toBeNull();
    // Already finished: a later finish does not overwrite it.
    expect(store.turns.finish(turn.id, 'completed').status).toBe('failed');
    expect(store.turns.running(sessionId)).toBeNull();
    expect(store.sessions.get(sessionId)?.running_turn_id).toBeNull();
  });
});

describe('deleting', () => {
  it('a session removes its turns, messages, events, tool calls, questions and context versions', () => {
    const doomed = fullSession(null);
    const kept = fullSession(null);
    expect(Object.values(childRows(doomed.sessionId)).every((n) => n > 0)).toBe(true);

    expect(store.sessions.delete(doomed.sessionId)).toBe(true);
    expect(store.sessions.get(doomed.sessionId)).toBeNull();
    expect(childRows(doomed.sessionId)).toEqual(NONE);
    expect(count('messages', 'turn_id = ?', doomed.turnId)).toBe(0);
    expect(store.sessions.delete(doomed.sessionId)).toBe(false);

    // The other session is untouched.
    expect(Object.values(childRows(kept.sessionId)).every((n) => n > 0)).toBe(true);
    expect(store.events.after(kept.sessionId, 0)).toHaveLength(2);
  });

  it('a project removes its sessions and everything under them, and nothing else', () => {
    const project = store.projects.upsertByPath('/work/some-project');
    const otherProject = store.projects.upsertByPath('/work/other-project');
    const inProject = [fullSession(project.id), fullSession(project.id)];
    const elsewhere = fullSession(otherProject.id);
    const loose = fullSession(null);
    expect(store.sessions.listIdsByProject(project.id).sort()).toEqual(
      inProject.map((s) => s.sessionId).sort(),
    );

    expect(store.projects.delete(project.id)).toBe(true);
    expect(store.projects.get(project.id)).toBeNull();
    for (const { sessionId } of inProject) {
      expect(store.sessions.get(sessionId)).toBeNull();
      expect(childRows(sessionId)).toEqual(NONE);
    }
    expect(
      store.sessions
        .list()
        .map((s) => s.id)
        .sort(),
    ).toEqual([elsewhere.sessionId, loose.sessionId].sort());
    expect(Object.values(childRows(elsewhere.sessionId)).every((n) => n > 0)).toBe(true);
    expect(store.projects.list().map((p) => p.id)).toEqual([otherProject.id]);
  });
});

describe('projects', () => {
  it('returns the same project for the same folder, bumping last_opened_at', async () => {
    const first = store.projects.upsertByPath('/work/alpha');
    expect(first).toMatchObject({ path: '/work/alpha', name: 'alpha' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = store.projects.upsertByPath('/work/alpha');
    expect(again.id).toBe(first.id);
    expect(again.last_opened_at > first.last_opened_at).toBe(true);
    expect(store.projects.get(first.id)?.last_opened_at).toBe(again.last_opened_at);
    expect(store.projects.list()).toHaveLength(1);
  });
});

describe('model configs', () => {
  const input = (name: string) => ({
    name,
    model: `claude-${name}`,
    base_url: null,
    context_window: 200_000,
    max_tokens: 8192,
  });
  const activeIds = () =>
    store.models
      .list()
      .filter((m) => m.active)
      .map((m) => m.id);

  it('makes the first config active and keeps exactly one active', () => {
    expect(store.models.active()).toBeNull();
    const a = store.models.create(input('a'));
    const b = store.models.create(input('b'));
    const c = store.models.create(input('c'));
    expect(a.active).toBe(true);
    expect(b.active).toBe(false);
    expect(c.active).toBe(false);
    expect(activeIds()).toEqual([a.id]);

    expect(store.models.activate(c.id)).toBe(true);
    expect(store.models.active()?.id).toBe(c.id);
    expect(activeIds()).toEqual([c.id]);
    expect(store.models.activate(c.id)).toBe(true);
    expect(activeIds()).toEqual([c.id]);

    expect(store.models.activate('mdl_missing')).toBe(false);
    expect(activeIds()).toEqual([c.id]);

    // The schema itself refuses a second active row.
    expect(() => store.db.prepare('UPDATE model_configs SET active = 1 WHERE id = ?').run(a.id)).toThrow(
      /UNIQUE/,
    );
    expect(activeIds()).toEqual([c.id]);

    // Deleting the active config hands the role to the oldest remaining one; deleting others does not move it.
    expect(store.models.delete(c.id)).toBe(true);
    expect(activeIds()).toEqual([a.id]);
    expect(store.models.delete(b.id)).toBe(true);
    expect(activeIds()).toEqual([a.id]);
    expect(store.models.delete(a.id)).toBe(true);
    expect(store.models.active()).toBeNull();
  });

  it('updates only the given fields', () => {
    const a = store.models.create({ ...input('a'), thinking_budget: 2048 });
    const updated = store.models.update(a.id, { name: 'renamed', thinking_budget: null });
    expect(updated).toMatchObject({
      name: 'renamed',
      model: 'claude-a',
      thinking_budget: null,
      active: true,
    });
    expect(store.models.update('mdl_missing', { name: 'x' })).toBeNull();
  });

  it('has no column that could hold an API key', () => {
    const columns = (store.db.prepare('PRAGMA table_info(model_configs)').all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toContain('model');
    for (const name of ['key', 'api_key', 'secret']) expect(columns).not.toContain(name);
    for (const column of columns) {
      // Word by word, so max_tokens is fine but api_key, key_ref or secret are not.
      const words = column.toLowerCase().split('_');
      expect(words, column).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(key|apikey|secret|password|credentials?)$/)]),
      );
    }
  });
});

describe('context versions', () => {
  it('gives a new session a HEAD at version 1, reason initial', () => {
    const sessionId = newSession();
    const head = store.contextVersions.head(sessionId);
    expect(head).toMatchObject({
      session_id: sessionId,
      number: 1,
      parent_id: null,
      first_message_id: null,
      summary: null,
      reason: 'initial',
    });
    expect(store.contextVersions.list(sessionId)).toEqual([head]);
    expect(store.contextVersions.head(newSession())?.id).not.toBe(head?.id);
    expect(store.contextVersions.head('ses_missing')).toBeNull();
  });
});

describe('questions', () => {
  it('closeForTurn closes only the pending questions of that turn', () => {
    const sessionId = newSession();
    const turn = store.turns.create(sessionId, 'r1', 'p');
    const otherTurn = store.turns.create(sessionId, 'r2', 'p');
    const ask = (turnId: string, question: string) =>
      store.questions.create({
        sessionId,
        turnId,
        toolCallId: null,
        kind: 'question',
        question,
        options: null,
        tool: null,
      });
    const answered = ask(turn.id, 'Which file?');
    const pending1 = ask(turn.id, 'Which branch?');
    const pending2 = ask(turn.id, 'Which test?');
    const elsewhere = ask(otherTurn.id, 'Other turn?');
    expect(store.questions.answer(answered.id, 'README.md')).toBe(true);
    expect(store.questions.answer(answered.id, 'again')).toBe(false);

    expect(store.questions.closeForTurn(turn.id).sort()).toEqual([pending1.id, pending2.id].sort());
    expect(store.questions.get(answered.id)).toMatchObject({ status: 'answered', answer: 'README.md' });
    expect(store.questions.get(pending1.id)?.status).toBe('closed');
    expect(store.questions.get(pending2.id)?.status).toBe('closed');
    expect(store.questions.get(elsewhere.id)?.status).toBe('pending');
    expect(store.questions.pending(sessionId).map((q) => q.id)).toEqual([elsewhere.id]);
    expect(store.questions.closeForTurn(turn.id)).toEqual([]);
    expect(store.questions.answer(pending1.id, 'too late')).toBe(false);
  });
});

describe('restart', () => {
  it('keeps all history when the same file is closed and opened again', () => {
    const project = store.projects.upsertByPath('/work/keep');
    const { sessionId, turnId } = fullSession(project.id);
    store.settings.set('theme', { dark: true });
    const model = store.models.create({
      name: 'm',
      model: 'claude',
      base_url: null,
      context_window: 100_000,
      max_tokens: 4096,
    });
    store.turns.finish(turnId, 'completed');
    const before = {
      session: store.sessions.get(sessionId),
      turns: store.turns.page(sessionId, 30),
      messages: store.messages.fromId(sessionId, null),
      events: store.events.after(sessionId, 0),
      toolCalls: store.toolCalls.forTurns([turnId]),
      questions: store.questions.pending(sessionId),
      head: store.contextVersions.head(sessionId),
    };
    expect(before.messages).toHaveLength(2);
    expect(before.questions).toHaveLength(1);

    reopen();

    expect(store.projects.get(project.id)).toEqual(project);
    expect(store.sessions.get(sessionId)).toEqual(before.session);
    expect(store.turns.page(sessionId, 30)).toEqual(before.turns);
    expect(store.messages.fromId(sessionId, null)).toEqual(before.messages);
    expect(store.messages.forTurns([turnId]).get(turnId)).toEqual(before.messages);
    expect(store.events.after(sessionId, 0)).toEqual(before.events);
    expect(store.toolCalls.forTurns([turnId])).toEqual(before.toolCalls);
    expect(store.questions.pending(sessionId)).toEqual(before.questions);
    expect(store.contextVersions.head(sessionId)).toEqual(before.head);
    expect(store.settings.get('theme')).toEqual({ dark: true });
    expect(store.models.active()).toEqual(model);

    // Numbering carries on where it stopped.
    expect(store.events.append(sessionId, delta(null, 'after restart')).seq).toBe(before.events.length + 1);
    expect(store.turns.create(sessionId, 'after', 'p').ordinal).toBe(2);
  });
});
