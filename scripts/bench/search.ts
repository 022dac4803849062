import { performance } from 'node:perf_hooks';
import { SearchService } from '../../sidecar/src/application/search/search-service';
import { SearchQuery } from '../../sidecar/src/protocol';
import { MIGRATIONS } from '../../sidecar/src/store/migrations';
import { Store } from '../../sidecar/src/store/store';
import { median, ms, prng, type Row, ratio, tempDir, us } from './util';

export interface SearchBenchOptions {
  messages: number;
  sessions: number;
  samples: number;
  warmup: number;
}

const WORDS = (
  'the a of to and in is it that for on with as was this be file test error build run code data table ' +
  'query index server client request response cache token model session turn kernel python script ' +
  'deploy release branch merge commit config option value result output input stream buffer socket'
).split(' ');
const RARE = ['zephyr', 'quokka', 'fjord', 'xylophone'];
const CHINESE = ['数据库迁移', '部署脚本', '测试用例', '性能优化', '配置文件'];

/** A message of 10 to 60 words, mostly common (skewed to the front of the list), some Chinese, few rare. */
function messageText(next: () => number): string {
  const words: string[] = [];
  const n = 10 + Math.floor(next() * 50);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.0005) words.push(RARE[Math.floor(next() * RARE.length)]!);
    else if (r < 0.03) words.push(CHINESE[Math.floor(next() * CHINESE.length)]!);
    else words.push(WORDS[Math.floor(next() ** 2 * WORDS.length)]!);
  }
  return words.join(' ');
}

/** Writes the messages the way the runtime does (a turn and its two messages per transaction); returns ms. */
function fill(store: Store, options: SearchBenchOptions): { ms: number; sessionIds: string[] } {
  const next = prng(17);
  const sessionIds = Array.from(
    { length: options.sessions },
    (_, i) => store.sessions.create({ projectId: null, title: `bench ${i}` }).id,
  );
  const turnsPerSession = Math.ceil(options.messages / 2 / options.sessions);
  const started = performance.now();
  for (const sessionId of sessionIds) {
    for (let t = 0; t < turnsPerSession; t++) {
      store.transaction(() => {
        const turn = store.turns.create(sessionId, `r${t}`, 'prompt');
        for (const role of ['user', 'assistant'] as const) {
          store.messages.append({
            sessionId,
            turnId: turn.id,
            role,
            content: [{ type: 'text', text: messageText(next) }],
          });
        }
      });
    }
  }
  return { ms: performance.now() - started, sessionIds };
}

/**
 * (j) Search over 100,000 messages written through the store: the median time of a page of hits
 * (snippets included) against a plain indexed SELECT of a page of messages, and what indexing adds to writing.
 */
export async function benchSearch(options: SearchBenchOptions, log: (what: string) => void): Promise<Row[]> {
  log(`(j) filling ${options.messages.toLocaleString('en-US')} messages without the index (schema 13)`);
  const plain = Store.open(tempDir('search-plain'), { migrations: MIGRATIONS.filter((m) => m.version < 14) });
  const without = fill(plain, options).ms;
  plain.close();

  log('(j) filling them with the index');
  const store = Store.open(tempDir('search'));
  try {
    const { ms: withIndex, sessionIds } = fill(store, options);
    const service = new SearchService(store);
    const select = store.db.prepare(
      'SELECT id, turn_id, role, content, internal, created_at FROM messages WHERE session_id = ? ORDER BY id LIMIT 20',
    );
    const queries = ['deploy', 'quokka', 'error build', '数据', '部署 script'];
    const times: Record<string, number[]> = Object.fromEntries([...queries, 'select'].map((q) => [q, []]));
    const hits: Record<string, number> = {};
    for (let i = 0; i < options.warmup + options.samples; i++) {
      for (const q of queries) {
        const start = performance.now();
        hits[q] = service.search(SearchQuery.parse({ q, limit: 20 })).hits.length;
        if (i >= options.warmup) times[q]!.push(performance.now() - start);
      }
      const start = performance.now();
      select.all(sessionIds[i % sessionIds.length]);
      if (i >= options.warmup) times.select!.push(performance.now() - start);
    }
    const reference = median(times.select!);
    const section = `(j) search over ${options.messages.toLocaleString('en-US')} messages (limit 20), median of ${options.samples}`;
    return [
      ...queries.map((q) => ({
        section,
        what: `search "${q}" (${hits[q]} hits on the page)`,
        value: ms(median(times[q]!)),
        reference: us(reference),
        ratio: ratio(median(times[q]!), reference),
        note: 'reference: prepared SELECT of 20 messages of a session by its index',
      })),
      {
        section,
        what: `writing ${options.messages.toLocaleString('en-US')} messages with the index`,
        value: ms(withIndex, 0),
        reference: ms(without, 0),
        ratio: ratio(withIndex, without),
        note: 'reference: the same writes on schema 13 (no search index); a turn and 2 messages per transaction',
      },
    ];
  } finally {
    store.close();
  }
}
