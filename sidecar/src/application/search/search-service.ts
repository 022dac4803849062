import { badRequest, notFound } from '../../errors';
import type { SearchHit, SearchQuery, SearchResult } from '../../protocol';
import { toMatchQuery } from '../../store/search-text';
import type { Store } from '../../store/store';
import { decodeCursor, encodeCursor, MAX_RANKED, SearchRankings } from './search-cursor';
import { makeSnippet } from './snippet';

/**
 * Full-text search over sessions: what a person typed becomes a safe FTS5 query, hits come best first
 * (bm25; ties newer first) a page at a time, each with a plain snippet and the ranges of its matches.
 * Forks' own sessions are left out of broad searches (their work shows in the parent's Fork call); a
 * search in one session finds what that session holds, fork or not. A search ranks its first
 * `MAX_RANKED` hits once; its pages are read from that ranking, so they neither skip nor repeat a hit
 * while the index changes.
 */
export class SearchService {
  private readonly rankings = new SearchRankings();

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
    const key = JSON.stringify([parsed.match, query.project_id ?? null, query.session_id ?? null]);
    const rank = () =>
      this.store.search.rank({
        match: parsed.match,
        ...(query.project_id !== undefined ? { projectId: query.project_id } : {}),
        ...(query.session_id !== undefined ? { sessionId: query.session_id } : {}),
        includeForks: query.session_id !== undefined,
        limit: MAX_RANKED,
      });
    let token: string;
    let offset = 0;
    let ids: number[];
    if (query.before === undefined) {
      ids = rank();
      token = this.rankings.keep(key, ids);
    } else {
      ({ token, offset } = decodeCursor(query.before));
      const kept = this.rankings.get(token, key);
      ids = kept ?? rank();
      if (!kept) token = this.rankings.keep(key, ids);
    }
    const end = offset + query.limit;
    const hits: SearchHit[] = this.store.search.documents(ids.slice(offset, end)).map((row) => ({
      session_id: row.session_id,
      turn_id: row.turn_id,
      kind: row.kind,
      ...makeSnippet(row.body, parsed.terms),
      session_title: row.session_title,
      project_id: row.project_id,
      ref: row.ref,
      created_at: row.created_at,
    }));
    return { hits, next_before: end < ids.length ? encodeCursor({ token, offset: end }) : null };
  }
}
