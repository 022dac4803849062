// What the Context tool must not do: take a kernel inventory the agent made up, keep a compaction queued
// past its turn, fill the context back up with a past version, or bring back what was forgotten.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompactResponse, ContextInfo, ContextVersionList, StructuredSummary } from '../../src/protocol';
import type { Store } from '../../src/store/store';
import { done, readRound, script, summaryOf, summaryReply, useWindow } from '../support/context-script';
import { type Harness, startHarness } from '../support/harness';
import type { RecordedRequest, ScriptedReply } from '../support/model-server';
import { seedTurns } from '../support/seed-turns';

const call = (input: unknown): ScriptedReply => ({
  content: [{ type: 'tool_use', name: 'Context', input }],
});
const resultOf = (req: RecordedRequest): string => {
  const last = req.body.messages.at(-1)!.content as { type: string; content: string }[];
  return last.find((b) => b.type === 'tool_result')!.content;
};

describe('the Context tool’s limits', () => {
  let h: Harness;
  const store = (): Store => h.server.core.store;
  const info = async (sessionId: string) =>
    (await h.api<ContextInfo>('GET', `/api/sessions/${sessionId}/context`)).body;
  beforeAll(async () => {
    h = await startHarness();
    await useWindow(h, { context_window: 200_000, max_tokens: 2000, compact_threshold: 0.8 });
  });
  afterAll(async () => h?.close());

  it('keeps the agent’s summary but not a kernel inventory it wrote itself', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 3);
    const given = { ...summaryOf('the agent'), kernel_variables: ['oops', { name: 1 }] };
    const run = script(h, [call({ method: 'compact', arguments: { level: 'session', ...given } }), done()]);
    expect((await h.waitForTurnEnd((await h.startTurn(sessionId, 'compact')).id)).status).toBe('completed');
    const versions = (await h.api<ContextVersionList>('GET', `/api/sessions/${sessionId}/context/versions`))
      .body;
    const summary = versions.versions.at(-1)!.summary as StructuredSummary;
    expect(summary.goal).toBe('goal of the agent');
    expect(summary.kernel_variables).toBeUndefined();
    // The version reads back whole: the next request carries the summary in place of the old turns.
    const after = script(h, [done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'go on')).id);
    const sent = JSON.stringify(after.agent()[0]!.body.messages);
    expect(sent).toContain('goal of the agent');
    expect(sent).not.toContain('answer 2');
    expect(run.summaries()).toHaveLength(0);
  });

  it('drops a queued compaction when its turn is cancelled before the next request', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 3);
    script(h, [
      {
        content: [
          {
            type: 'tool_use',
            name: 'Context',
            input: { method: 'compact', arguments: { level: 'session', ...summaryOf('stale') } },
          },
          {
            type: 'tool_use',
            name: 'AskUserQuestion',
            input: { question: 'Go on?', options: ['yes', 'no'] },
          },
        ],
      },
    ]);
    const turn = await h.startTurn(sessionId, 'compact, then ask');
    await h.waitForEvent(sessionId, (e) => e.type === 'question.required');
    expect((await info(sessionId)).compaction_pending).toBe(true);
    expect((await h.api('POST', `/api/turns/${turn.id}/cancel`)).status).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('cancelled');
    expect((await info(sessionId)).compaction_pending).toBe(false);

    const next = script(h, [done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'something else')).id);
    expect((await h.events(sessionId)).some((e) => e.type === 'context.compacted')).toBe(false);
    const sent = JSON.stringify(next.agent()[0]!.body.messages);
    expect(sent).not.toContain('<context-summary');
    expect(sent).toContain('answer 2');
    expect((await info(sessionId)).version).toBe(1);
  });

  it('reads a past version with long blocks cut, naming the file that holds each whole', async () => {
    fs.writeFileSync(path.join(h.projectDir, 'long.txt'), 'a long line of the long file\n'.repeat(200));
    const { sessionId } = await h.newSession();
    script(h, [readRound('long.txt'), done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'read long.txt')).id);
    const run = script(h, [call({ method: 'read', arguments: { version: 1 } }), done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'look back')).id);
    const page = JSON.parse(resultOf(run.agent()[1]!)) as { messages: { content: { content?: string }[] }[] };
    const result = page.messages.flatMap((m) => m.content).find((b) => typeof b.content === 'string')!;
    expect(result.content!.length).toBeLessThan(5000);
    expect(result.content).toMatch(/more characters; Read \S+result\.txt for all of it\]$/);
    const file = /Read (\S+result\.txt)/.exec(result.content!)![1]!;
    expect(fs.readFileSync(file, 'utf8')).toContain('a long line of the long file');
    expect(fs.readFileSync(file, 'utf8').length).toBeGreaterThan(6000);
  });

  it('inspects a long session as its newest units and counts of the older ones', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 50);
    const run = script(h, [call({ method: 'inspect' }), done()]);
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'inspect')).id);
    const inspected = JSON.parse(resultOf(run.agent()[1]!));
    const total = (await info(sessionId)).units.length;
    expect(total).toBeGreaterThan(100);
    expect(inspected.units).toHaveLength(60);
    expect(inspected.older_units.count).toBe(total - 60 - 2);
    expect(inspected.older_units.by_level.raw.units).toBe(total - 62);
  });

  it('does not bring back a forgotten memory when a later summary repeats it', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(store(), sessionId, 8, (i) => ({ prompt: `prompt ${i}`, answer: `answer ${i} `.repeat(600) }));
    const remembered = (texts: string[]) => summaryReply(summaryOf('memory', { remember: texts }));
    script(h, [], () => remembered(['tabs, not spaces']));
    const compact = (level: string) =>
      h.api<CompactResponse>('POST', `/api/sessions/${sessionId}/context/compact`, { level });
    const first = await compact('turn');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const kept = store().experiences.forSession(sessionId, null);
    expect(kept.map((e) => e.text)).toEqual(['tabs, not spaces']);
    expect((await h.api('DELETE', `/api/experiences/${kept[0]!.id}`)).status).toBe(204);

    // The session summary merges the turn summaries: it still lists the old entry, beside a new one.
    script(h, [], () => remembered(['tabs, not spaces', 'the build is make']));
    expect((await compact('session')).status).toBe(200);
    expect(
      store()
        .experiences.forSession(sessionId, null)
        .map((e) => e.text),
    ).toEqual(['the build is make']);
  });

  it('names the system prompt and its experiences when they are what does not fit', async () => {
    const { sessionId } = await h.newSession();
    for (let i = 0; i < 8; i++)
      await h.api('POST', `/api/sessions/${sessionId}/experiences`, {
        text: `fact ${i}: ${'detail '.repeat(500)}`,
      });
    await useWindow(h, { context_window: 6000, max_tokens: 1000, compact_threshold: 0.8 });
    try {
      script(h, [done()]);
      const turn = await h.waitForTurnEnd((await h.startTurn(sessionId, 'hello')).id);
      expect(turn.status).toBe('failed');
      expect(turn.error?.code).toBe('context_window_exceeded');
      expect(turn.error?.message).toContain('The largest part is the system prompt');
      expect(turn.error?.message).toContain('8 experiences');
    } finally {
      await useWindow(h, { context_window: 200_000, max_tokens: 2000, compact_threshold: 0.8 });
    }
  });
});
