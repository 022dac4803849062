// Compaction triggered by the threshold, level by level, through the real SDK and a real sidecar.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, ContextInfo, ContextVersionList, TurnWithDetails } from '../../src/protocol';
import type { Store } from '../../src/store/store';
import { done, readRound, script, summaryOf, summaryReply, useWindow } from '../support/context-script';
import { type Harness, startHarness } from '../support/harness';

/** Past turns written as the runtime writes them: a prompt, then `parts` answers (each continued by a note). */
function seedTurns(store: Store, sessionId: string, count: number, parts: number, chars: number): void {
  for (let i = 1; i <= count; i++) {
    store.transaction(() => {
      const turn = store.turns.create(sessionId, `seed-${i}`, `seeded prompt ${i}`);
      const add = (role: 'user' | 'assistant', text: string, internal = false) =>
        store.messages.append({
          sessionId,
          turnId: turn.id,
          role,
          content: [{ type: 'text', text }],
          internal,
        });
      add('user', `seeded prompt ${i}`);
      for (let p = 0; p < parts; p++) {
        if (p > 0) add('user', 'Continue exactly where it stopped.', true);
        add(
          'assistant',
          `answer ${i}.${p}: ${'words of a seeded answer '.repeat(Math.ceil(chars / 25))}`.slice(0, chars),
        );
      }
      store.turns.finish(turn.id, 'completed');
    });
  }
}

const eventsOf = (events: CairnEvent[], type: string) => events.filter((e) => e.type === type) as never[];

describe('compaction by the threshold', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('block: old tool results become stubs naming their file; the history keeps them whole', async () => {
    await useWindow(h, { context_window: 16_000, max_tokens: 1000, compact_threshold: 0.7 });
    const big = `${'a line of the big file, long enough to matter\n'.repeat(180)}`;
    fs.writeFileSync(path.join(h.projectDir, 'big.txt'), big);
    const { sessionId } = await h.newSession();
    const run = script(h, [...Array.from({ length: 6 }, () => readRound('big.txt')), done()]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'read big.txt six times')).id);
    expect(turn.status).toBe('completed');
    const events = await h.events(sessionId);
    const compacted = eventsOf(events, 'context.compacted') as {
      level: string;
      reason: string;
      tokens_before: number;
      tokens_after: number;
    }[];
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted.every((c) => c.level === 'block' && c.reason === 'threshold')).toBe(true);
    expect(compacted[0]!.tokens_after).toBeLessThan(compacted[0]!.tokens_before);
    expect(run.summaries()).toHaveLength(0);
    const last = JSON.stringify(run.agent().at(-1)!.body.messages);
    expect(last).toContain('Compacted by Cairn');
    expect(last).toMatch(/tool-calls[^"]*result\.txt/);
    // The raw history keeps every result in full.
    const details = await h.api<TurnWithDetails>('GET', `/api/turns/${turn.id}`);
    expect(details.status).toBe(200);
    const messages = h.server.core.store.messages.range(sessionId, null, null);
    const results = messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
    expect(results).toHaveLength(6);
    for (const r of results) expect(JSON.stringify(r)).toContain('a line of the big file');
    const info = (await h.api<ContextInfo>('GET', `/api/sessions/${sessionId}/context`)).body;
    expect(info.version).toBe(1 + compacted.length);
    expect(info.units.some((u) => u.level === 'block' && u.kind === 'tool_result')).toBe(true);
    const versions = (await h.api<ContextVersionList>('GET', `/api/sessions/${sessionId}/context/versions`))
      .body;
    expect(versions.versions.map((v) => v.number)).toEqual(
      Array.from({ length: 1 + compacted.length }, (_, i) => i + 1),
    );
    expect(versions.versions[1]).toMatchObject({
      parent: 1,
      level: 'block',
      reason: 'threshold',
      turn_id: turn.id,
    });
  });

  it('loop: past rounds of the running turn become a summary, and the long turn keeps going', async () => {
    await useWindow(h, { context_window: 10_000, max_tokens: 1000, compact_threshold: 0.6 });
    fs.writeFileSync(path.join(h.projectDir, 'small.txt'), 'x'.repeat(300));
    const { sessionId } = await h.newSession();
    const rounds = Array.from({ length: 30 }, (_, i) =>
      readRound('small.txt', `Round ${i}: ${'thinking aloud '.repeat(30)}`),
    );
    const run = script(h, [...rounds, done()], (_req, n) =>
      summaryReply(
        summaryOf(`loop ${n}`, { remember: n === 1 ? ['small.txt holds only x characters'] : [] }),
      ),
    );
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'read small.txt thirty times')).id);
    expect(turn.status).toBe('completed');
    const compacted = eventsOf(await h.events(sessionId), 'context.compacted') as {
      level: string;
      summary: unknown;
    }[];
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]).toMatchObject({ level: 'loop', summary: { goal: 'goal of loop 1' } });
    expect(run.summaries().length).toBeGreaterThanOrEqual(compacted.length);
    const summaryPrompt = JSON.stringify(run.summaries()[0]!.body.messages);
    expect(summaryPrompt).toContain('Round 0');
    const last = run.agent().at(-1)!.body;
    expect(JSON.stringify(last.messages)).toContain('<context-summary level=\\"loop\\">');
    // The latest prompt is kept verbatim, and nothing asks a finished agent to start again.
    expect(JSON.stringify(last.messages[0])).toContain('read small.txt thirty times');
    // remember became an experience, shown at the end of the system prompt.
    expect(JSON.stringify(last.system)).toContain('small.txt holds only x characters</exp>');
    expect(h.server.core.store.messages.range(sessionId, null, null).length).toBe(1 + 30 * 2 + 1);
  });

  it('turn: whole past turns become summaries when their rounds cannot be cut', async () => {
    // Room for the tools (ToolControl among them) and a tail, not for all four past turns.
    await useWindow(h, { context_window: 16_000, max_tokens: 1000, compact_threshold: 0.6 });
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 4, 8, 500);
    const run = script(h, [done('Fine.')], (_req, n) => summaryReply(summaryOf(`turn ${n}`)));
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'and now?')).id);
    expect(turn.status).toBe('completed');
    const compacted = eventsOf(await h.events(sessionId), 'context.compacted') as { level: string }[];
    expect(compacted.map((c) => c.level)).toEqual(['turn']);
    const sent = JSON.stringify(run.agent()[0]!.body.messages);
    expect(sent).toContain('<context-summary level=\\"turn\\">');
    expect(sent).not.toContain('answer 1.0');
    expect(sent).toContain('and now?');
  });

  it('session: everything before the recent tail becomes one structured summary', async () => {
    await useWindow(h, { context_window: 14_000, max_tokens: 1000, compact_threshold: 0.5 });
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 30, 1, 500);
    const run = script(h, [done('Fine.')], (_req, n) => summaryReply(summaryOf(`session ${n}`)));
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'where are we?')).id);
    expect(turn.status).toBe('completed');
    const compacted = eventsOf(await h.events(sessionId), 'context.compacted') as {
      level: string;
      tokens_before: number;
      tokens_after: number;
    }[];
    expect(compacted.map((c) => c.level)).toEqual(['session']);
    expect(compacted[0]!.tokens_after).toBeLessThan(compacted[0]!.tokens_before);
    const sent = run.agent()[0]!.body.messages;
    expect(JSON.stringify(sent[0])).toContain('<context-summary level=\\"session\\">');
    expect(JSON.stringify(sent[0])).toContain('goal of session 1');
    expect(JSON.stringify(sent.at(-1))).toContain('where are we?');
    expect(JSON.stringify(sent)).not.toContain('answer 1.0');
  });

  it('with automatic compaction off, a request that cannot fit fails as before, advising to compact', async () => {
    await useWindow(h, { context_window: 14_000, max_tokens: 1000, compact_threshold: null });
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 60, 2, 500);
    const run = script(h, [done('never sent')]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'go on')).id);
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('context_window_exceeded');
    expect(turn.error?.message).toMatch(/compact/i);
    expect(run.agent()).toEqual([]);
    expect(run.summaries()).toEqual([]);
    const events = await h.events(sessionId);
    expect(events.filter((e) => e.type.startsWith('context.'))).toEqual([]);
    // The user can still compact, and then the session goes on.
    const compact = await h.api('POST', `/api/sessions/${sessionId}/context/compact`, { level: 'session' });
    expect(compact.status).toBe(200);
    const next = await h.waitForTurnEnd((await h.startTurn(sessionId, 'go on, please')).id);
    expect(next.status).toBe('completed');
  });

  it('a tool result too large for any level fails the turn, naming it', async () => {
    // Under the limit that sends a result to a file, larger than the tool catalog, and than what this window
    // leaves beside the tools.
    await useWindow(h, { context_window: 7000, max_tokens: 1000, compact_threshold: 0.8 });
    fs.writeFileSync(
      path.join(h.projectDir, 'huge.txt'),
      `${'a long line of a huge file that will not fit\n'.repeat(265)}`,
    );
    const { sessionId } = await h.newSession();
    script(h, [readRound('huge.txt'), done()]);
    const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'read huge.txt')).id);
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('context_window_exceeded');
    expect(turn.error?.message).toMatch(
      /largest part is a tool result \(b:\d+:0, about \d+ tokens, protected/,
    );
    expect(turn.error?.message).toContain('Nothing was lost');
  });
});
