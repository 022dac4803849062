// Full-text search against a real store: what is found, in what order, with which snippet; Chinese; filters;
// paging; the index kept in step with messages, tool calls and kernel cells; inputs that must not break FTS5.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchService } from '../../src/application/search/search-service';
import { makeSnippet } from '../../src/application/search/snippet';
import { CairnError } from '../../src/errors';
import { type SearchHit, SearchQuery } from '../../src/protocol';
import { Store } from '../../src/store/store';

let dataDir: string;
let store: Store;
let search: SearchService;

beforeEach(() => {
  dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-search-')));
  store = Store.open(dataDir);
  search = new SearchService(store);
});

afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const find = (q: string, extra: Record<string, unknown> = {}) =>
  search.search(SearchQuery.parse({ q, ...extra }));
const refs = (q: string, extra: Record<string, unknown> = {}) => find(q, extra).hits.map((h) => h.ref);

function session(
  projectId: string | null = null,
  title = 'a session',
): { sessionId: string; turnId: string } {
  const sessionId = store.sessions.create({ projectId, title }).id;
  const turnId = store.turns.create(sessionId, `req-${sessionId}`, 'prompt').id;
  return { sessionId, turnId };
}

function say(
  s: { sessionId: string; turnId: string },
  text: string,
  role: 'user' | 'assistant' = 'user',
): string {
  const message = store.messages.append({
    sessionId: s.sessionId,
    turnId: s.turnId,
    role,
    content: [{ type: 'text', text }],
  });
  return String(message.id);
}

/** The slices of the snippet its ranges mark, lower-cased. */
const marked = (hit: SearchHit) =>
  hit.match_ranges.map((r) => hit.snippet.slice(r.start, r.end).toLowerCase());

describe('search', () => {
  it('ranks a document with more and rarer matches first, and marks the terms in a plain snippet', () => {
    const s = session(null, 'tuning');
    for (let i = 0; i < 5; i++) say(s, `the database was slow on run ${i}`);
    const weak = say(s, 'database vacuum finished');
    const strong = say(s, 'vacuum the database: vacuum reclaims space, and vacuum is cheap');
    const result = find('vacuum database');
    expect(result.hits.map((h) => h.ref)).toEqual([strong, weak]);
    const top = result.hits[0]!;
    expect(top).toMatchObject({
      kind: 'message',
      session_id: s.sessionId,
      turn_id: s.turnId,
      session_title: 'tuning',
    });
    expect(top.snippet).toBe('vacuum the database: vacuum reclaims space, and vacuum is cheap');
    expect(marked(top)).toEqual(['vacuum', 'database', 'vacuum', 'vacuum']);
    expect(result.next_before).toBeNull();
  });

  it('cuts a long text to a window around the first match, with "…" where it was cut', () => {
    const long = `${'lorem ipsum '.repeat(40)}Migration failed on the CAFÉ table${' dolor sit'.repeat(40)}`;
    const { snippet, match_ranges } = makeSnippet(long, ['migration', 'cafe']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(162);
    expect(match_ranges.map((r) => snippet.slice(r.start, r.end))).toEqual(['Migration', 'CAFÉ']);
    // Whole words only for Latin terms: "grate" is not marked inside "migrate".
    expect(makeSnippet('migrate or grate', ['grate']).match_ranges).toEqual([{ start: 11, end: 16 }]);
  });

  it('finds Chinese words inside longer runs, single characters, and mixed queries', () => {
    const s = session();
    const zh = say(s, '我们需要做数据库迁移，然后再部署。');
    const mixed = say(s, '运行数据库 migration 之前先备份');
    const other = say(s, '今天天气很好');
    expect(refs('数据')).toEqual(expect.arrayContaining([zh, mixed]));
    expect(refs('数据')).not.toContain(other);
    expect(refs('库迁移')).toEqual([zh]);
    expect(refs('迁数')).toEqual([]);
    // One character: a prefix of the bigrams, or the run's last character.
    expect(refs('署')).toEqual([zh]);
    expect(refs('天')).toEqual([other]);
    expect(refs('数据库 migration')).toEqual([mixed]);
    expect(refs('数据库migration')).toEqual([mixed]);
    const hit = find('数据库 migration').hits[0]!;
    expect(hit.snippet).toBe('运行数据库 migration 之前先备份');
    expect(marked(hit)).toEqual(['数据库', 'migration']);
  });

  it("keeps Japanese words whole across the long-vowel mark, and splits at the scripts' punctuation", () => {
    const s = session();
    const server = say(s, 'サーバーを再起動した');
    const other = say(s, 'サバ缶とバーの話');
    expect(refs('サーバー')).toEqual([server]);
    expect(refs('サーバー')).not.toContain(other);
    const punct = say(s, '完成了。然后休息');
    expect(refs('然后')).toEqual([punct]);
    expect(refs('了然')).toEqual([]);
  });

  it('marks a match whose accent is written decomposed, in the text or the query', () => {
    const id = say(session(), 'Opened /Users/me/cafe\u0301 noir.txt and the Cafe\u0301 menu');
    const hit = find('cafe').hits[0]!;
    expect(hit.ref).toBe(id);
    expect(marked(hit)).toEqual(['café', 'café']);
    expect(marked(find('cafe\u0301').hits[0]!)).toEqual(['café', 'café']);
  });

  it('folds case and accents the same way in the index, the query and the marks', () => {
    const id = say(session(), 'Ordered a CAFÉ crème at the Naïve Café');
    expect(refs('cafe')).toEqual([id]);
    expect(refs('naive CREME')).toEqual([id]);
    expect(marked(find('café').hits[0]!)).toEqual(['café', 'café']);
  });

  it('filters by project and by session; forks are left out unless their session is asked for', () => {
    const projectA = store.projects.upsertByPath(path.join(dataDir, 'a')).id;
    const projectB = store.projects.upsertByPath(path.join(dataDir, 'b')).id;
    const a = session(projectA);
    const b = session(projectB);
    const inA = say(a, 'deploy the kubernetes cluster');
    const inB = say(b, 'kubernetes upgrade notes');
    const fork = store.sessions.create({
      projectId: projectA,
      fork: { parentSessionId: a.sessionId, parentTurnId: a.turnId, task: 't', tools: null },
    }).id;
    const inFork = say(
      { sessionId: fork, turnId: store.turns.create(fork, 'r', 'p').id },
      'kubernetes in a fork',
    );

    expect(refs('kubernetes').sort()).toEqual([inA, inB].sort());
    expect(refs('kubernetes', { project_id: projectA })).toEqual([inA]);
    expect(find('kubernetes', { project_id: projectB }).hits[0]?.project_id).toBe(projectB);
    expect(refs('kubernetes', { session_id: b.sessionId })).toEqual([inB]);
    expect(refs('kubernetes', { session_id: fork })).toEqual([inFork]);
    expect(() => find('kubernetes', { project_id: 'prj_nope' })).toThrow(/Project prj_nope does not exist/);
    expect(() => find('kubernetes', { session_id: 'ses_nope' })).toThrow(CairnError);
  });

  it('pages through every hit once, in rank order, with an opaque cursor', () => {
    const s = session();
    const all: string[] = [];
    // Equal scores for many (same text): the tie-break must still give each hit once.
    for (let i = 0; i < 23; i++) all.push(say(s, i % 3 === 0 ? 'paging paging test' : 'paging test'));
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    do {
      const page = find('paging', { limit: 5, ...(before ? { before } : {}) });
      seen.push(...page.hits.map((h) => h.ref));
      before = page.next_before ?? undefined;
      pages++;
    } while (before);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(23);
    expect(new Set(seen)).toEqual(new Set(all));
    expect(seen).toEqual(refs('paging', { limit: 100 }));
    expect(() => find('paging', { before: 'not-a-cursor' })).toThrow(/next_before/);
  });

  it('keeps its pages while the index changes: no hit skipped or repeated', () => {
    const s = session();
    const first: string[] = [];
    for (let i = 0; i < 30; i++) first.push(say(s, i % 2 ? 'steady steady words' : 'steady words'));
    const page1 = find('steady', { limit: 10 });
    // Writes between pages change every score (bm25 weighs a word by its rarity in the whole index).
    for (let i = 0; i < 300; i++) say(s, `unrelated ${i}`);
    const added = [say(s, 'steady steady steady newcomer')];
    const page2 = find('steady', { limit: 10, before: page1.next_before });
    const page3 = find('steady', { limit: 10, before: page2.next_before });
    const seen = [...page1.hits, ...page2.hits, ...page3.hits].map((h) => h.ref);
    expect(page3.next_before).toBeNull();
    expect(new Set(seen)).toEqual(new Set(first));
    expect(seen).toHaveLength(30);
    // A new search sees what was added.
    expect(refs('steady', { limit: 100 })).toEqual(expect.arrayContaining(added));
    // A cursor belongs to its search.
    expect(() => find('words', { limit: 10, before: page1.next_before })).toThrow(/another search/);
  });

  it('never turns what a person typed into an FTS5 syntax error', () => {
    const s = session();
    const id = say(s, 'foo AND bar (x) -x NEAR "quoted" foo*');
    // Either hits, or a bad_request saying there is nothing to search for: never SQLite's own error.
    for (const q of [
      '"',
      'AND',
      'foo*',
      '(',
      '-x',
      'NEAR(',
      'foo OR',
      '"foo',
      'bar)',
      '^foo',
      'col:foo',
      '{a b}',
    ]) {
      try {
        find(q);
      } catch (error) {
        expect(error, q).toBeInstanceOf(CairnError);
        expect((error as CairnError).code, q).toBe('bad_request');
      }
    }
    for (const q of ['AND', 'foo*', '"foo', 'bar)', '^foo']) expect(refs(q), q).toEqual([id]);
    expect(refs('AND')).toEqual([id]);
    expect(refs('-x')).toEqual([id]);
    expect(refs('NEAR(')).toEqual([id]);
    for (const q of ['"', '(', '*', '-- ;']) {
      expect(() => find(q), q).toThrow(/Nothing to search for/);
    }
  });

  it('keeps the index in step: new messages, finished tool calls, kernel cells, deleted sessions', () => {
    const s = session();
    expect(refs('zebra')).toEqual([]);
    const message = say(s, 'a zebra crossed', 'assistant');
    expect(refs('zebra')).toEqual([message]);
    // Internal messages (Cairn's own instructions) and tool results inside messages are not indexed.
    store.messages.append({
      sessionId: s.sessionId,
      turnId: s.turnId,
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'x', content: 'zebra in a result block' }],
    });
    store.messages.append({ ...s, role: 'user', content: [{ type: 'text', text: 'zebra' }], internal: true });
    expect(refs('zebra')).toEqual([message]);

    const call = store.toolCalls.create({
      sessionId: s.sessionId,
      turnId: s.turnId,
      toolUseId: 'tu1',
      name: 'Bash',
      input: { command: 'cd app\ngrep -r needle src', timeout: 30 },
      status: 'running',
    });
    expect(refs('needle')).toEqual([call.id]);
    // The input read as text, not JSON: the word after a newline is a word ("\ngrep" is not "ngrep").
    expect(find('grep').hits[0]?.snippet).toBe('Bash command: cd app grep -r needle src timeout: 30');
    expect(refs('haystack')).toEqual([]);
    const resultFile = path.join(dataDir, 'result.txt');
    fs.writeFileSync(resultFile, `${'x '.repeat(3000)}the haystack is only in the file`);
    store.toolCalls.finish(call.id, {
      status: 'completed',
      isError: false,
      preview: 'x x x',
      resultFile,
      durationMs: 5,
    });
    const [toolHit] = find('haystack').hits;
    expect(toolHit).toMatchObject({ kind: 'tool_call', ref: call.id, turn_id: s.turnId });
    expect(refs('needle')).toEqual([call.id]);

    const kernel = (event: Record<string, unknown>) =>
      store.transaction(() =>
        store.events.append(s.sessionId, { turn_id: null, kernel: 'python', ...event } as never),
      );
    kernel({
      type: 'kernel.execution_started',
      execution_id: 'ex1',
      code: 'import pandas',
      tool_call_id: null,
    });
    expect(find('pandas').hits[0]).toMatchObject({ kind: 'kernel_cell', ref: 'ex1', turn_id: null });
    kernel({ type: 'kernel.stream', execution_id: 'ex1', stream: 'stdout', text: 'loaded frames\n' });
    kernel({ type: 'kernel.stream', execution_id: 'ex2', stream: 'stdout', text: 'frames elsewhere\n' });
    expect(refs('loaded')).toEqual([]);
    kernel({
      type: 'kernel.result',
      execution_id: 'ex1',
      success: true,
      return_value: { text: 'DataFrame 3x4', artifacts: [] },
      error: null,
      execution_time_ms: 3,
      limit: null,
      state_lost: null,
    });
    expect(refs('loaded')).toEqual(['ex1']);
    expect(refs('DataFrame')).toEqual(['ex1']);
    expect(refs('pandas')).toEqual(['ex1']);
    expect(refs('elsewhere')).toEqual([]);

    expect(store.sessions.delete(s.sessionId)).toBe(true);
    for (const q of ['zebra', 'needle', 'haystack', 'pandas']) expect(refs(q), q).toEqual([]);
    const leftover = store.db.prepare('SELECT count(*) AS n FROM search_fts').get() as { n: number };
    expect(leftover.n).toBe(0);
  });

  it("removes a project's sessions from the index when the project goes (cascade through sessions)", () => {
    const projectId = store.projects.upsertByPath(path.join(dataDir, 'p')).id;
    say(session(projectId), 'ephemeral words');
    const kept = say(session(null), 'ephemeral but kept');
    store.projects.delete(projectId);
    expect(refs('ephemeral')).toEqual([kept]);
    const rows = store.db
      .prepare("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH 'ephemeral'")
      .get();
    expect(rows).toEqual({ n: 1 });
  });
});
