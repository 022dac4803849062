import { afterEach, describe, expect, it } from 'vitest';
import type { TurnWithDetails } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { seedTurns } from '../support/seed-turns';

type Page = { turns: TurnWithDetails[]; next_before: number | null };

describe('paging a long history through the API', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('65 turns come back 30/30/5, oldest first within a page, next_before null at the start', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 65);

    const pages: Page[] = [];
    let before: number | null | undefined;
    do {
      const query = before === undefined ? '' : `?before=${before}`;
      const res = await h.api<Page>('GET', `/api/sessions/${sessionId}/turns${query}`);
      expect(res.status).toBe(200);
      pages.push(res.body);
      before = res.body.next_before;
    } while (before !== null && pages.length < 10);

    expect(pages.map((p) => p.turns.length)).toEqual([30, 30, 5]);
    expect(pages.map((p) => p.next_before)).toEqual([36, 6, null]);
    expect(pages[0]!.turns.map((t) => t.ordinal)).toEqual(Array.from({ length: 30 }, (_, i) => 36 + i));
    expect(pages[2]!.turns.map((t) => t.ordinal)).toEqual([1, 2, 3, 4, 5]);
    const last = pages[0]!.turns.at(-1)!;
    expect(last.messages.map((m) => m.content[0]?.text)).toEqual(['prompt 65', 'answer 65']);

    // The same pages after a restart: history lives in the database, not in memory.
    await h.restart();
    const again = await h.api<Page>('GET', `/api/sessions/${sessionId}/turns?before=36`);
    expect(again.body).toEqual(pages[1]);
  });
});
