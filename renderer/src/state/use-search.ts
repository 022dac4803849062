import { useCallback, useEffect, useRef, useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { SearchHit } from '../../../sidecar/src/protocol';
import { messageOf } from './session-controller';

/** Where a search looks: every session, one project's, or one session's. */
export type SearchScope =
  | { kind: 'all' }
  | { kind: 'project'; projectId: string }
  | { kind: 'session'; sessionId: string };

export interface SearchState {
  hits: SearchHit[];
  nextBefore: string | null;
  /** A first page is being read for the query as typed. */
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  /** The query the hits are for (trimmed); empty before anything is typed. */
  query: string;
}

const EMPTY: SearchState = {
  hits: [],
  nextBefore: null,
  loading: false,
  loadingMore: false,
  error: null,
  query: '',
};
export const SEARCH_PAGE = 20;

function filters(scope: SearchScope): { project_id?: string; session_id?: string } {
  if (scope.kind === 'project') return { project_id: scope.projectId };
  if (scope.kind === 'session') return { session_id: scope.sessionId };
  return {};
}

/**
 * Searches as the user types, `debounceMs` after the last keystroke; an answer for a query or scope that has
 * since changed is dropped. "Load more" reads the next page after the last one's `next_before`.
 */
export function useSearch(client: CairnClient, text: string, scope: SearchScope, debounceMs = 200) {
  const [state, setState] = useState<SearchState>(EMPTY);
  // Bumped by every new query or scope: an older request's answer no longer applies.
  const generation = useRef(0);
  const query = text.trim();
  const scopeKey = JSON.stringify(scope);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scopeKey stands for scope
  useEffect(() => {
    const mine = ++generation.current;
    if (query === '') {
      setState(EMPTY);
      return;
    }
    setState((s) => ({ ...s, loading: true, error: null }));
    const timer = setTimeout(() => {
      client.search({ q: query, limit: SEARCH_PAGE, ...filters(scope) }).then(
        (result) => {
          if (generation.current !== mine) return;
          setState({ ...EMPTY, hits: result.hits, nextBefore: result.next_before, query });
        },
        (error: unknown) => {
          if (generation.current !== mine) return;
          setState({ ...EMPTY, error: messageOf(error), query });
        },
      );
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [client, query, scopeKey, debounceMs]);

  const loadMore = useCallback(async () => {
    const before = state.nextBefore;
    if (before === null || state.loadingMore || state.loading) return;
    const mine = generation.current;
    setState((s) => ({ ...s, loadingMore: true }));
    try {
      const result = await client.search({ q: state.query, limit: SEARCH_PAGE, before, ...filters(scope) });
      if (generation.current !== mine) return;
      setState((s) => ({
        ...s,
        hits: [...s.hits, ...result.hits],
        nextBefore: result.next_before,
        loadingMore: false,
      }));
    } catch (error) {
      if (generation.current !== mine) return;
      setState((s) => ({ ...s, loadingMore: false, error: messageOf(error) }));
    }
  }, [client, state, scope]);

  return { ...state, loadMore };
}
