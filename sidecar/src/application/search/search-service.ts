import { badRequest, notFound } from '../../errors';
import type { SearchHit, SearchQuery, SearchResult } from '../../protocol';
import { toMatchQuery } from '../../store/search-text';
import type { Store } from '../../store/store';
import { decodeCursor, encodeCursor } from './search-cursor';
import { makeSnippet } from './snippet';

/**
 * Full-text search over sessions: what a person typed becomes a safe FTS5 query, hits come best first
 * (bm25; ties newer first) a page at a time, each with a plain snippet and the ranges of its matches.
 * Forks' own sessions are left out of broad searches (their work shows in the parent's Fork call); a
 * search in one session finds what that session holds, fork or not.
 */
export class SearchService {
  constructor(private readonly store: Store) {}

  search(query: SearchQuery): SearchResult {
    if (query.project_id !== undefined && !this.store.projects.get(query.project_id))
      throw notFound('Project', query.project_id);
    if (query.session_id !== undefined && !this.store.sessions.get(query.session_id))
      throw notFound('Session', query.session_id);
    const parsed = toMatchQuery(query.q);
    if (!parsed)
      throw badRequest(
        `Nothing to search for in "${query.q}": give at least one word or number (punctuation alone is not searched).`,
      );
    const rows = this.store.search.search({
      match: parsed.match,
      ...(query.project_id !== undefined ? { projectId: query.project_id } : {}),
      ...(query.session_id !== undefined ? { sessionId: query.session_id } : {}),
      includeForks: query.session_id !== undefined,
      // One more than a page says whether another page follows.
      limit: query.limit + 1,
      ...(query.before !== undefined ? { after: decodeCursor(query.before) } : {}),
    });
    const page = rows.slice(0, query.limit);
    const hits: SearchHit[] = page.map((row) => ({
      session_id: row.session_id,
      turn_id: row.turn_id,
      kind: row.kind,
      ...makeSnippet(row.body, parsed.terms),
      session_title: row.session_title,
      project_id: row.project_id,
      ref: row.ref,
      created_at: row.created_at,
    }));
    const last = page.at(-1);
    return {
      hits,
      next_before:
        rows.length > query.limit && last ? encodeCursor({ score: last.score, id: last.id }) : null,
    };
  }
}
