// Migration 14 on a database that already holds sessions: it indexes what is there, in batches, saying how
// far it has come; what it indexed is found like anything written afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SearchService } from '../../src/application/search/search-service';
import { SearchQuery } from '../../src/protocol';
import type { MigrationProgress } from '../../src/store/migrations';
import { MIGRATIONS } from '../../src/store/migrations';
import { Store } from '../../src/store/store';

let dataDir: string;

beforeEach(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-search-migration-')));
});

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const BEFORE_SEARCH = MIGRATIONS.filter((m) => m.version < 14);

it('indexes the messages, tool calls and kernel cells of a database from before search', () => {
  const old = Store.open(dataDir, { migrations: BEFORE_SEARCH });
  const sessionId = old.sessions.create({ projectId: null, title: 'old work' }).id;
  const turnId = old.turns.create(sessionId, 'r1', 'p').id;
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

  const progress: MigrationProgress[] = [];
  const store = Store.open(dataDir, { onProgress: (p) => progress.push(p) });
  try {
    const search = new SearchService(store);
    const find = (q: string) => search.search(SearchQuery.parse({ q })).hits;
    expect(find('数据').map((h) => h.snippet)).toEqual(['旧的数据库迁移 legacy']);
    expect(find('archived')).toMatchObject([{ kind: 'tool_call', ref: call.id }]);
    expect(find('notes')).toMatchObject([{ kind: 'tool_call', ref: call.id }]);
    expect(find('fortytwo')).toMatchObject([
      { kind: 'kernel_cell', ref: 'ex-old', session_title: 'old work' },
    ]);

    const messages = progress.filter((p) => p.unit === 'messages');
    expect(messages.map((p) => p.done)).toEqual([2000, 2500]);
    expect(messages.every((p) => p.total === 2500 && p.version === 14)).toBe(true);
    expect(progress[0]?.task).toBe('Indexing sessions for search');
    expect(progress.some((p) => p.unit === 'tool calls' && p.done === 1)).toBe(true);
    expect(progress.some((p) => p.unit === 'kernel events' && p.done === 2)).toBe(true);
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
