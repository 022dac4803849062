// The "done when": one turn of 200 tool rounds over large results in a small window keeps going,
// the history keeps every message, every compaction is on the journal and its versions readable, and
// between compactions each request's prefix is the previous request, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, ContextVersionList, ContextVersionView, Turn } from '../../src/protocol';
import { done, readRound, script, summaryOf, summaryReply, useWindow } from '../support/context-script';
import { type Harness, startHarness } from '../support/harness';
import type { MessagesRequestBody } from '../support/model-server';
import { unmarked } from '../support/prompt-cache';

const ROUNDS = 200;
// 14k: the tools (the runtime's ToolControl and LoadTool, and Fork, among them) take about 4k of it.
const WINDOW = 13_000;
const USABLE = WINDOW - 1000;

describe(`a turn of ${ROUNDS} tool rounds in a small window`, () => {
  let h: Harness;
  let sessionId: string;
  let turn: Turn;
  let requests: MessagesRequestBody[];
  let compacted: Extract<CairnEvent, { type: 'context.compacted' }>[];

  beforeAll(async () => {
    h = await startHarness({ env: { CAIRN_FORK_LIMIT: '0' } });
    await useWindow(h, { context_window: WINDOW, max_tokens: 1000, compact_threshold: 0.7 });
    // About 1,200 tokens a read: without compaction the window is full after a few rounds.
    fs.writeFileSync(
      path.join(h.projectDir, 'big.txt'),
      'one line of a large file to read again\n'.repeat(120),
    );
    ({ sessionId } = await h.newSession());
    const rounds = Array.from({ length: ROUNDS }, (_, i) => readRound('big.txt', `Round ${i + 1}.`));
    const run = script(h, [...rounds, done('All 200 read.')], (_req, n) =>
      summaryReply(summaryOf(`rounds ${n}`)),
    );
    turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'read big.txt 200 times')).id);
    requests = run.agent().map((r) => r.body);
    compacted = (await h.events(sessionId)).filter(
      (e): e is Extract<CairnEvent, { type: 'context.compacted' }> => e.type === 'context.compacted',
    );
  });
  afterAll(async () => h?.close());

  it('runs every round and completes', () => {
    expect(turn.status).toBe('completed');
    expect(turn.error).toBeNull();
    expect(requests).toHaveLength(ROUNDS + 1);
    // CAIRN_FORK_LIMIT=0: the model is not offered Fork.
    const names = (requests[0]!.tools ?? []).map((t: { name: string }) => t.name);
    expect(names).toContain('Context');
    expect(names).not.toContain('Fork');
  });

  it('keeps every message and every result whole in the history', () => {
    const messages = h.server.core.store.messages.range(sessionId, null, null);
    expect(messages).toHaveLength(1 + ROUNDS * 2 + 1);
    const results = messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
    expect(results).toHaveLength(ROUNDS);
    for (const r of results) expect(JSON.stringify(r)).toContain('one line of a large file');
  });

  it('compacts many times, each request staying under the usable window', () => {
    expect(compacted.length).toBeGreaterThan(5);
    // Cheap first: stubs for old results, then summaries of past rounds, and the session when those run out.
    expect(new Set(compacted.map((c) => c.level))).toEqual(new Set(['block', 'loop', 'session']));
    expect(compacted[0]!.level).toBe('block');
    for (const c of compacted) expect(c.tokens_after).toBeLessThan(c.tokens_before);
    for (const body of requests) expect(JSON.stringify(body).length / 4).toBeLessThan(USABLE * 1.5);
  });

  it('lists every compaction as a version, each readable', async () => {
    const versions = (await h.api<ContextVersionList>('GET', `/api/sessions/${sessionId}/context/versions`))
      .body.versions;
    expect(versions).toHaveLength(1 + compacted.length);
    expect(versions.slice(1).map((v) => v.number)).toEqual(compacted.map((c) => c.version));
    for (const v of versions) {
      const page = await h.api<ContextVersionView>(
        'GET',
        `/api/sessions/${sessionId}/context/versions/${v.number}?limit=5`,
      );
      expect(page.status).toBe(200);
      expect(page.body.messages.length).toBeGreaterThan(0);
      expect(page.body.head).toBe(v.number === versions.length);
    }
  });

  it('sends each request as the previous one plus what was added, except across a compaction', () => {
    let changed = 0;
    for (let i = 1; i < requests.length; i++) {
      const before = unmarked(requests[i - 1]) as MessagesRequestBody;
      const now = unmarked(requests[i]) as MessagesRequestBody;
      expect(JSON.stringify(now.tools)).toBe(JSON.stringify(before.tools));
      const same =
        JSON.stringify(now.system) === JSON.stringify(before.system) &&
        JSON.stringify(now.messages.slice(0, before.messages.length)) === JSON.stringify(before.messages);
      if (!same) changed++;
    }
    // Only a compaction changes what was sent before; several may land before one request.
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThanOrEqual(compacted.length);
    expect(requests.length - 1 - changed).toBeGreaterThan(ROUNDS / 2);
  });
});
