// A session's context through the API (its size and units, its versions, "compact now"), and compactions
// that must leave the context as it was: cancelled with the turn, or cutting too little to be worth it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CairnEvent,
  CompactResponse,
  ContextInfo,
  ContextVersionList,
  ContextVersionView,
  Turn,
  TurnPage,
} from '../../src/protocol';
import type { Store } from '../../src/store/store';
import { done, readRound, script, summaryOf, summaryReply, useWindow } from '../support/context-script';
import { type Harness, startHarness } from '../support/harness';
import { STDLIB_KERNEL_ENV } from '../support/kernel-harness';
import { seedTurns } from '../support/seed-turns';
import { waitFor } from '../tools/tool-context';

const long = (i: number) => ({
  prompt: `seeded prompt ${i}`,
  answer: `answer ${i}: ${'words of a seeded answer '.repeat(20)}`,
});
const ofType = <T>(events: CairnEvent[], type: string) => events.filter((e) => e.type === type) as T[];
type ErrorBody = { error: { code: string; message: string } };

describe('a session’s context over the API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    await useWindow(h, { context_window: 100_000, max_tokens: 4000, compact_threshold: 0.8 });
    fs.writeFileSync(path.join(h.projectDir, 'small.txt'), 'small file\n');
  });
  afterAll(async () => h?.close());

  const store = (): Store => h.server.core.store;
  const info = async (sessionId: string) =>
    (await h.api<ContextInfo>('GET', `/api/sessions/${sessionId}/context`)).body;

  it('shows the size, the window, the threshold and the units of the next request', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 4, long);
    const body = await info(sessionId);
    expect(body).toMatchObject({
      version: 1,
      estimated: true,
      usable_window: 96_000,
      compact_threshold: 0.8,
      threshold_tokens: 76_800,
      compaction_pending: false,
    });
    expect(body.units).toHaveLength(8);
    const turns = store().turns.page(sessionId, 10).turns;
    expect(new Set(body.units.map((u) => u.turn_id))).toEqual(new Set(turns.map((t) => t.id)));
    expect(body.units.every((u) => u.level === 'raw' && u.tokens > 0)).toBe(true);
    // Before the first request the system prompt and tools are not counted yet: the label says estimated.
    expect(body.estimated_tokens).toBeGreaterThanOrEqual(body.units.reduce((sum, u) => sum + u.tokens, 0));
    expect((await h.api<ErrorBody>('GET', '/api/sessions/nope/context')).status).toBe(404);

    // The size alone, for a meter: the same figures, no units.
    const sizeOnly = (await h.api<ContextInfo>('GET', `/api/sessions/${sessionId}/context?units=false`)).body;
    expect(sizeOnly).toEqual({ ...body, units: [] });
    const bad = await h.api<ErrorBody>('GET', `/api/sessions/${sessionId}/context?units=no`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
  });

  it('counts a new session’s system prompt and tools from a neighbour’s last request until its own', async () => {
    const first = await h.newSession();
    script(h, [done()]);
    await h.waitForTurnEnd((await h.startTurn(first.sessionId, 'hello')).id);
    const measured = store().sessions.lastRequest(first.sessionId) as { overhead_tokens: number };
    expect(measured.overhead_tokens).toBeGreaterThan(500);

    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 2, long);
    const body = await info(sessionId);
    expect(body.estimated).toBe(true);
    const conversation = body.units.reduce((sum, u) => sum + u.tokens, 0);
    expect(body.estimated_tokens).toBeGreaterThanOrEqual(conversation + measured.overhead_tokens);
  });

  it('compacts now: a new version, the history whole, the old version readable page by page', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 6, long);
    const messagesBefore = store().messages.fromId(sessionId, null).length;
    const run = script(h, [], () => summaryReply(summaryOf('the user’s compaction')));

    const res = await h.api<CompactResponse>('POST', `/api/sessions/${sessionId}/context/compact`, {
      level: 'session',
    });
    expect(res.status).toBe(200);
    expect(run.summaries()).toHaveLength(1);
    expect(res.body.version).toBe(2);
    expect(res.body.compacted).toMatchObject({ number: 2, parent: 1, level: 'session', reason: 'user' });
    expect(res.body.compacted.summary?.goal).toBe('goal of the user’s compaction');
    expect(res.body.compacted.tokens_after!).toBeLessThan(res.body.compacted.tokens_before!);
    expect(store().messages.fromId(sessionId, null)).toHaveLength(messagesBefore);
    expect((await info(sessionId)).version).toBe(2);

    const events = await h.events(sessionId);
    expect(ofType(events, 'context.compaction_started')).toEqual([
      expect.objectContaining({ level: 'session', reason: 'user' }),
    ]);
    expect(ofType(events, 'context.compacted')).toEqual([
      expect.objectContaining({ version: 2, level: 'session', summary: expect.any(Object) }),
    ]);

    const versions = (await h.api<ContextVersionList>('GET', `/api/sessions/${sessionId}/context/versions`))
      .body.versions;
    expect(versions.map((v) => [v.number, v.parent, v.reason])).toEqual([
      [1, null, 'initial'],
      [2, 1, 'user'],
    ]);
    // The turn page shows it after the turn it followed, and nowhere else.
    const page = (await h.api<TurnPage>('GET', `/api/sessions/${sessionId}/turns?limit=10`)).body;
    const lastMessage = store().messages.fromId(sessionId, null).at(-1)!;
    expect(page.turns.map((t) => t.compactions.map((c) => c.number))).toEqual([[], [], [], [], [], [2]]);
    expect(page.turns.at(-1)!.compactions[0]).toMatchObject({
      after_message_id: lastMessage.id,
      turn_id: null,
    });

    // The version before: every message as the model saw it, newest first, two at a time.
    const seen: number[] = [];
    let before: number | null = null;
    for (let page = 0; page < 20; page++) {
      const query: string = before === null ? '?limit=5' : `?limit=5&before=${before}`;
      const view = await h.api<ContextVersionView>(
        'GET',
        `/api/sessions/${sessionId}/context/versions/1${query}`,
      );
      expect(view.status).toBe(200);
      expect(view.body.head).toBe(false);
      expect(view.body.total).toBe(12);
      seen.push(...view.body.messages.map((m) => m.index));
      before = view.body.next_before;
      if (before === null) break;
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    const head = await h.api<ContextVersionView>('GET', `/api/sessions/${sessionId}/context/versions/2`);
    expect(head.body.head).toBe(true);
    expect(JSON.stringify(head.body.messages)).toContain('goal of the user’s compaction');
    expect(JSON.stringify(head.body.messages)).not.toContain('answer 1:');

    const path404 = `/api/sessions/${sessionId}/context/versions/9`;
    expect((await h.api<ErrorBody>('GET', path404)).status).toBe(404);
    expect((await h.api<ErrorBody>('GET', `/api/sessions/${sessionId}/context/versions/0`)).status).toBe(400);
    expect((await h.api<ErrorBody>('GET', `${path404.slice(0, -1)}1?limit=500`)).status).toBe(400);
  });

  it('refuses what cannot be compacted, and a session whose turn is running', async () => {
    const { sessionId: empty } = await h.newSession();
    const nothing = await h.api<ErrorBody>('POST', `/api/sessions/${empty}/context/compact`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toMatch(/Nothing in the context can be cut/);
    const bad = await h.api<ErrorBody>('POST', `/api/sessions/${empty}/context/compact`, { level: 'all' });
    expect(bad.status).toBe(400);
    expect((await h.api<ErrorBody>('POST', '/api/sessions/nope/context/compact', {})).status).toBe(404);

    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 3, long);
    script(h, [{ content: [{ type: 'text', text: 'thinking…' }], hang: true }]);
    const turn = await h.startTurn(sessionId, 'take your time');
    await h.waitForEvent(sessionId, (e) => e.type === 'message.delta' || e.type === 'turn.started');
    const busy = await h.api<ErrorBody>('POST', `/api/sessions/${sessionId}/context/compact`, {});
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('turn_running');
    await h.api('POST', `/api/turns/${turn.id}/cancel`);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('cancelled');
    expect((await info(sessionId)).version).toBe(1);
  });

  it('starts no turn while "compact now" runs, and no second compaction', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 4, long);
    let release: () => void = () => {};
    const run = script(
      h,
      [done('After the compaction.')],
      () =>
        new Promise((resolve) => {
          release = () => resolve(summaryReply(summaryOf('slow')));
        }),
    );
    const compacting = h.api<CompactResponse>('POST', `/api/sessions/${sessionId}/context/compact`, {
      level: 'session',
    });
    await waitFor(() => run.summaries().length > 0);
    const turn = await h.api<ErrorBody>('POST', `/api/sessions/${sessionId}/turns`, {
      prompt: 'too early',
      request_id: 'early',
    });
    expect(turn.status).toBe(409);
    expect(turn.body.error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('compacted'),
    });
    const again = await h.api<ErrorBody>('POST', `/api/sessions/${sessionId}/context/compact`, {});
    expect(again.status).toBe(409);
    release();
    expect((await compacting).status).toBe(200);
    const later = await h.startTurn(sessionId, 'now');
    expect((await h.waitForTurnEnd(later.id)).status).toBe('completed');
    expect(JSON.stringify(run.agent()[0]!.body.messages)).toContain('goal of slow');
  });

  it('a compaction cancelled with its turn leaves the context as it was', async () => {
    await useWindow(h, { context_window: 14_000, max_tokens: 1000, compact_threshold: 0.5 });
    try {
      const { sessionId } = await h.newSession();
      seedTurns(store(), sessionId, 30, long);
      const run = script(h, [done('never sent')], () => ({ content: [], hang: true }));
      const turn = await h.startTurn(sessionId, 'go on');
      await h.waitForEvent(sessionId, (e) => e.type === 'context.compaction_started');
      // Cancelled while the summary call is out.
      await waitFor(() => run.summaries().length > 0);
      await h.api('POST', `/api/turns/${turn.id}/cancel`);
      const ended: Turn = await h.waitForTurnEnd(turn.id);
      expect(ended.status).toBe('cancelled');
      expect(run.agent()).toEqual([]);
      const failed = ofType<{ error: { code: string } }>(
        await h.events(sessionId),
        'context.compaction_failed',
      );
      expect(failed.map((f) => f.error.code)).toEqual(['cancelled']);
      expect((await info(sessionId)).version).toBe(1);
      expect(store().contextVersions.list(sessionId)).toHaveLength(1);
    } finally {
      await useWindow(h, { context_window: 100_000, max_tokens: 4000, compact_threshold: 0.8 });
    }
  });

  it('a summary that does not shrink the context is not written, tried once, and the turn goes on', async () => {
    await useWindow(h, { context_window: 14_000, max_tokens: 1000, compact_threshold: 0.5 });
    try {
      const { sessionId } = await h.newSession();
      seedTurns(store(), sessionId, 30, long);
      const bloated = summaryOf('bloat', { discoveries: ['a discovery that goes on and on '.repeat(400)] });
      const run = script(h, [readRound('small.txt'), readRound('small.txt'), done('Still here.')], () =>
        summaryReply(bloated),
      );
      const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'go on')).id);
      expect(turn.status).toBe('completed');
      expect(run.agent()).toHaveLength(3);
      const events = await h.events(sessionId);
      // One attempt, for the first request; the rounds after it do not try again at the same size.
      expect(ofType(events, 'context.compaction_started')).toHaveLength(1);
      const failed = ofType<{ error: { code: string; message: string } }>(
        events,
        'context.compaction_failed',
      );
      expect(failed).toHaveLength(1);
      expect(failed[0]!.error.code).toBe('context_window_exceeded');
      expect(failed[0]!.error.message).toMatch(/cut the context by at least 10%/);
      expect(ofType(events, 'context.compacted')).toEqual([]);
      expect((await info(sessionId)).version).toBe(1);
      // The agent got the whole context, uncut.
      expect(JSON.stringify(run.agent()[0]!.body.messages)).toContain('answer 1:');
    } finally {
      await useWindow(h, { context_window: 100_000, max_tokens: 4000, compact_threshold: 0.8 });
    }
  });

  it('a session summary carries the live kernel’s variables', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 3, long);
    script(h, [
      {
        content: [
          { type: 'tool_use', name: 'execute_code', input: { code: 'answer = 42\nnames = ["a", "b"]' } },
        ],
      },
      done('Set.'),
    ]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'set them')).id);
    expect(turn.status).toBe('completed');
    const run = script(h, [], () => summaryReply(summaryOf('with kernels')));
    const res = await h.api<CompactResponse>('POST', `/api/sessions/${sessionId}/context/compact`, {
      level: 'session',
    });
    expect(res.status).toBe(200);
    expect(run.summaries()).toHaveLength(1);
    const variables = res.body.compacted.summary?.kernel_variables ?? [];
    expect(variables).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'answer', type: 'int', repr: '42' }),
        expect.objectContaining({ name: 'names', type: 'list', repr: "['a', 'b']" }),
      ]),
    );
    const head = await h.api<ContextVersionView>('GET', `/api/sessions/${sessionId}/context/versions/2`);
    expect(JSON.stringify(head.body.messages)).toContain('answer');
    expect(JSON.stringify(head.body.messages)).toContain('42');
  });
});
