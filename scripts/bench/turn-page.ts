import { performance } from 'node:perf_hooks';
import { listTurnPage } from '../../sidecar/src/application/turns/turn-history';
import type { TurnWithDetails } from '../../sidecar/src/protocol';
import { Store } from '../../sidecar/src/store/store';
import { startHarness } from '../../sidecar/test/support/harness';
import type { ModelServer } from '../../sidecar/test/support/model-server';
import { seedTurns } from '../../sidecar/test/support/seed-turns';
import { median, ms, type Row, ratio, removeDirs, tempDir, us } from './util';

const PAGE = 30;

/** Fills a session the way the runtime does: per turn, the turn and its two messages in one transaction. */
function fill(dataDir: string, turns: number): { sessionId: string; fillMs: number } {
  const store = Store.open(dataDir);
  try {
    const started = performance.now();
    const sessionId = store.sessions.create({ projectId: null, title: 'bench: 10k turns' }).id;
    const answer = 'Here is what I found. '.repeat(8);
    seedTurns(store, sessionId, turns, (i) => ({
      prompt: `question number ${i}`,
      answer: `${answer}(${i})`,
    }));
    return { sessionId, fillMs: performance.now() - started };
  } finally {
    store.close();
  }
}

/** Times each function `samples` times, taking them in turn so drifting load hits all of them alike. */
async function timeInTurn<K extends string>(
  fns: Record<K, () => unknown>,
  samples: number,
  warmup = 3,
): Promise<Record<K, number[]>> {
  const names = Object.keys(fns) as K[];
  const out = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < warmup + samples; i++) {
    for (const name of names) {
      const start = performance.now();
      await fns[name]();
      if (i >= warmup) out[name].push(performance.now() - start);
    }
  }
  return out;
}

interface PageBody {
  turns: TurnWithDetails[];
  next_before: number | null;
}

/** (c) Opening the newest page of a session with many turns, over HTTP, against cheap references. */
export async function benchTurnPage(model: ModelServer, turns: number, samples: number): Promise<Row[]> {
  const dataDir = tempDir('page');
  const { sessionId, fillMs } = fill(dataDir, turns);
  const h = await startHarness({ dataDir, model });
  try {
    const get = async (route: string): Promise<string> => {
      const res = await fetch(`${h.server.url}${route}`, {
        headers: { authorization: `Bearer ${h.server.token}` },
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET ${route} answered ${res.status}: ${text}`);
      return text;
    };
    const newest = `/api/sessions/${sessionId}/turns?limit=${PAGE}`;
    const oldest = `/api/sessions/${sessionId}/turns?limit=${PAGE}&before=${PAGE + 1}`;

    const page = JSON.parse(await get(newest)) as PageBody;
    const ordinals = page.turns.map((t) => t.ordinal);
    if (
      ordinals[0] !== turns - PAGE + 1 ||
      ordinals.at(-1) !== turns ||
      page.next_before !== turns - PAGE + 1
    ) {
      throw new Error(`unexpected newest page: ${ordinals.join(',')} next ${page.next_before}`);
    }
    if (!page.turns.every((t) => t.messages.length === 2))
      throw new Error('a turn came without its two messages');

    const store = h.server.core.store;
    const select = store.db.prepare('SELECT * FROM turns WHERE session_id = ? ORDER BY ordinal DESC LIMIT ?');
    const t = await timeInTurn(
      {
        newest: () => get(newest),
        health: () => get('/api/health'),
        oldest: () => get(oldest),
        repo: () => listTurnPage(store, sessionId, PAGE),
        select: () => select.all(sessionId, PAGE),
      },
      samples,
    );
    const bytes = Buffer.byteLength(await get(newest));

    const p = median(t.newest);
    const health = median(t.health);
    const sql = median(t.select);
    const section = `(c) newest page of ${turns.toLocaleString('en-US')} turns (limit ${PAGE}), median of ${samples}`;
    return [
      {
        section,
        what: 'GET /api/sessions/:id/turns (newest page)',
        value: ms(p),
        reference: ms(health),
        ratio: ratio(p, health),
        note: `reference: GET /api/health on the same server; ${(bytes / 1024).toFixed(1)} KiB body; fill took ${(fillMs / 1000).toFixed(1)} s`,
      },
      {
        section,
        what: 'GET …/turns?before=31 (oldest page)',
        value: ms(median(t.oldest)),
        reference: ms(health),
        ratio: ratio(median(t.oldest), health),
      },
      {
        section,
        what: 'listTurnPage() in process (no HTTP)',
        value: us(median(t.repo)),
        reference: us(sql),
        ratio: ratio(median(t.repo), sql),
        note: 'reference: prepared SELECT of the 30 turn rows',
      },
    ];
  } finally {
    await h.close();
    removeDirs([h.dataDir, h.projectDir]);
  }
}
