// GET /api/search through a real sidecar: authenticated, the protocol's shape, a turn's words found with
// their snippet, filters checked, bad input a 400.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SearchResult } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';

let h: Harness;
let projectId: string;
let sessionId: string;
beforeAll(async () => {
  h = await startHarness();
  ({ projectId, sessionId } = await h.newSession());
  h.model.enqueue({ content: [{ type: 'text', text: 'The 迁移脚本 is in scripts/migrate.ts.' }] });
  const turn = await h.startTurn(sessionId, 'Where is the database migration script?');
  await h.waitForTurnEnd(turn.id);
});
afterAll(async () => h?.close());

it('finds what a turn said, ranked, in the protocol shape', async () => {
  const res = await h.api(
    'GET',
    `/api/search?q=${encodeURIComponent('migration 迁移')}&project_id=${projectId}`,
  );
  expect(res.status).toBe(200);
  // Every word must occur in one document: the prompt has one, the answer the other.
  expect(SearchResult.parse(res.body)).toEqual({ hits: [], next_before: null });

  const found = SearchResult.parse((await h.api('GET', '/api/search?q=migration&limit=1')).body);
  expect(found.hits).toHaveLength(1);
  const [hit] = found.hits;
  expect(hit).toMatchObject({ session_id: sessionId, kind: 'message', project_id: projectId });
  expect(hit!.snippet).toBe('Where is the database migration script?');
  expect(hit!.match_ranges.map((r) => hit!.snippet.slice(r.start, r.end))).toEqual(['migration']);
  expect(typeof hit!.turn_id).toBe('string');
  // Whole words: the answer's "migrate" is not "migration", so there is no second page.
  expect(found.next_before).toBeNull();

  const zh = SearchResult.parse((await h.api('GET', `/api/search?q=${encodeURIComponent('迁移')}`)).body);
  expect(zh.hits.map((x) => x.snippet)).toEqual(['The 迁移脚本 is in scripts/migrate.ts.']);
});

it('is authenticated and answers bad input with 400 and an unknown session with 404', async () => {
  const anonymous = await fetch(`${h.server.url}/api/search?q=migration`);
  expect(anonymous.status).toBe(401);
  expect((await h.api('GET', '/api/search')).status).toBe(400);
  const punctuation = await h.api<{ error: { code: string; message: string } }>('GET', '/api/search?q=%22(');
  expect(punctuation.status).toBe(400);
  expect(punctuation.body.error.code).toBe('bad_request');
  expect((await h.api('GET', '/api/search?q=x&limit=101')).status).toBe(400);
  expect((await h.api('GET', '/api/search?q=x&session_id=ses_missing')).status).toBe(404);
});
