// Migration 14 on a database that already holds sessions: what is there is indexed after start, in batches
// that resume after a stop, saying how far it has come; what it indexed is found like anything written later.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SearchBackfillJob } from '../../src/application/search/search-backfill-job';
import { SearchService } from '../../src/application/search/search-service';
import { type Logger, silentLogger } from '../../src/log/logger';
import { SearchQuery } from '../../src/protocol';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/store/migrations';
import { Store } from '../../src/store/store';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-search-migration-')));
});

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const BEFORE_SEARCH = MIGRATIONS.filter((m) => m.version < 14);

it('indexes the messages, tool calls and kernel cells of a database from before search', async () => {
  const old = Store.open(dataDir, { migrations: BEFORE_SEARCH });
  const sessionId = old.sessions.create({ projectId: null, title: 'old work' }).id;
  // Written as schema 13 had it (today's repo writes columns added later).
  const turnId = 'trn_from_before_search';
  old.db
    .prepare(
      `INSERT INTO turns (id, session_id, ordinal, request_id, prompt, status, created_at)
       VALUES (?, ?, 1, 'r1', 'p', 'running', '2026-01-01T00:00:00.000Z')`,
    )
    .run(turnId, sessionId);
  // More than one batch of messages, so progress is told more than once.
  old.transaction(() => {
    for (let i = 0; i < 2500; i++) {
      old.messages.append({
        sessionId,
        turnId,
        role: i % 2 ? 'assistant' : 'user',
        content: [{ type: 'text', text: i === 1234 ? '旧的数据库迁移 legacy' : `filler ${i}` }],
      });
    }
  });
  const call = old.toolCalls.create({
    sessionId,
    turnId,
    toolUseId: 'tu',
    name: 'Read',
    input: { path: 'notes.md' },
    status: 'running',
  });
  old.toolCalls.finish(call.id, {
    status: 'completed',
    isError: false,
    preview: 'archived preview',
    resultFile: null,
    durationMs: 1,
  });
  old.transaction(() => {
    const base = { turn_id: null, kernel: 'python', execution_id: 'ex-old' };
    old.events.append(sessionId, {
      ...base,
      type: 'kernel.execution_started',
      code: 'print(6*7)',
      tool_call_id: null,
    });
    old.events.append(sessionId, { ...base, type: 'kernel.stream', stream: 'stdout', text: 'fortytwo\n' });
    old.events.append(sessionId, {
      ...base,
      type: 'kernel.result',
      success: true,
      return_value: null,
      error: null,
      execution_time_ms: 1,
      limit: null,
      state_lost: null,
    });
  });
  expect(old.db.pragma('user_version', { simple: true })).toBe(13);
  old.close();

  // Opening migrates at once: indexing the history waits for the backfill, which a stop interrupts.
  let store = Store.open(dataDir);
  const find = (q: string) => new SearchService(store).search(SearchQuery.parse({ q })).hits;
  try {
    expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(find('legacy')).toEqual([]);
    expect(store.searchBackfill.step(1000)).toEqual({ done: 1000, total: 2501, finished: false });
    store.close();

    store = Store.open(dataDir);
    const lines: string[] = [];
    const logger: Logger = { ...silentLogger, info: (msg) => lines.push(msg) };
    const job = new SearchBackfillJob(store.searchBackfill, logger, 400);
    job.start();
    await job.done;
    expect(store.searchBackfill.pending()).toBe(false);
    expect(lines[0]).toBe('Indexing sessions for search: started');
    expect(lines).toContain('Indexing sessions for search: 1400/2501 rows');
    expect(lines.at(-1)).toBe('Indexing sessions for search: done (2501 rows)');

    expect(find('数据').map((h) => h.snippet)).toEqual(['旧的数据库迁移 legacy']);
    expect(find('archived')).toMatchObject([{ kind: 'tool_call', ref: call.id }]);
    expect(find('notes')).toMatchObject([{ kind: 'tool_call', ref: call.id }]);
    expect(find('fortytwo')).toMatchObject([
      { kind: 'kernel_cell', ref: 'ex-old', session_title: 'old work' },
    ]);
    expect(find('filler')).toHaveLength(20);
    // Written after the migration, indexed by the repositories as usual.
    store.messages.append({
      sessionId,
      turnId,
      role: 'user',
      content: [{ type: 'text', text: 'legacy again' }],
    });
    expect(find('legacy')).toHaveLength(2);
  } finally {
    store.close();
  }
});

it('has nothing to index on a new database, and the job ends at once', async () => {
  const store = Store.open(dataDir);
  try {
    expect(store.searchBackfill.pending()).toBe(false);
    const job = new SearchBackfillJob(store.searchBackfill, silentLogger);
    job.start();
    await job.done;
  } finally {
    store.close();
  }
});
