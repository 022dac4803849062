import { afterEach, describe, expect, it } from 'vitest';
import type { CairnEvent, ErrorResponse } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

type Page = { events: CairnEvent[]; has_more: boolean };

/** 30 events: a kernel.stream every third one (9 in all), the rest message.delta, and 5 trailing deltas. */
function seedMixedJournal(h: Harness, sessionId: string): void {
  const events = h.server.core.store.events;
  for (let i = 0; i < 30; i++) {
    if (i % 3 === 0 && i < 25) {
      events.append(sessionId, {
        type: 'kernel.stream',
        turn_id: null,
        kernel: 'default',
        execution_id: `exe_${i}`,
        stream: 'stdout',
        text: `chunk ${i}\n`,
      });
    } else {
      events.append(sessionId, { type: 'message.delta', turn_id: null, index: 0, text: `delta ${i}` });
    }
  }
}

async function page(h: Harness, sessionId: string, query: string): Promise<Page> {
  const res = await h.api<Page>('GET', `/api/sessions/${sessionId}/events?${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('GET /api/sessions/{id}/events?type_prefix=', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('pages through only the matching events, with has_more counting matching rows', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    seedMixedJournal(h, sessionId);
    const all = (await page(h, sessionId, 'after=0')).events;
    const kernelSeqs = all.filter((e) => e.type.startsWith('kernel.')).map((e) => e.seq);
    expect(kernelSeqs).toHaveLength(9);
    // Non-kernel events follow the last kernel one: an unfiltered has_more would be true there.
    expect(all.at(-1)!.seq).toBeGreaterThan(kernelSeqs.at(-1)!);

    const pages: Page[] = [];
    let after = 0;
    for (;;) {
      const next = await page(h, sessionId, `after=${after}&limit=3&type_prefix=kernel.`);
      pages.push(next);
      if (!next.has_more || pages.length > 10) break;
      after = next.events.at(-1)!.seq;
    }

    // 9 matches in pages of 3: three full pages, and the third says there is no more.
    expect(pages.map((p) => p.events.length)).toEqual([3, 3, 3]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    const got = pages.flatMap((p) => p.events);
    expect(got.every((e) => e.type === 'kernel.stream')).toBe(true);
    expect(got.map((e) => e.seq)).toEqual(kernelSeqs);
    expect(got.map((e) => (e.type === 'kernel.stream' ? e.text : null))).toEqual(
      [0, 3, 6, 9, 12, 15, 18, 21, 24].map((i) => `chunk ${i}\n`),
    );

    // `after` in the middle of non-matching rows starts at the next match.
    const middle = await page(h, sessionId, `after=${kernelSeqs[4]! + 1}&limit=2&type_prefix=kernel.`);
    expect(middle.events.map((e) => e.seq)).toEqual(kernelSeqs.slice(5, 7));
    expect(middle.has_more).toBe(true);

    // Other prefixes filter the same way; matching is exact and case-sensitive.
    const deltas = await page(h, sessionId, 'type_prefix=message.');
    expect(deltas.events).toHaveLength(21);
    expect(deltas.events.every((e) => e.type === 'message.delta')).toBe(true);
    expect((await page(h, sessionId, 'type_prefix=KERNEL.')).events).toEqual([]);
    expect((await page(h, sessionId, 'type_prefix=kernel_')).events).toEqual([]);
  });

  it('refuses a prefix that is not the start of an event type with a 400 saying what is allowed', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();

    for (const bad of ['kernel%25', '', 'a'.repeat(65)]) {
      const res = await h.api<ErrorResponse>('GET', `/api/sessions/${sessionId}/events?type_prefix=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('type_prefix');
    }
  });
});
