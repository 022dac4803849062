import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { SearchHit } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { type SearchScope, useSearch } from '../../state/use-search';
import { focusOnMount } from '../focus-on-mount';
import { splitByRanges } from './match-ranges';
import '../../i18n/messages/dialogs';

export type SearchScopeKind = SearchScope['kind'];

/**
 * Search, keyboard first like a command palette: Ctrl/Cmd+Shift+F everywhere (or the open session's project),
 * Ctrl/Cmd+F in the open session. Arrow keys move, Enter opens the hit's session at its turn, Esc closes.
 */
export function SearchDialog(props: {
  client: CairnClient;
  /** The open session, which the "This session" and "This project" scopes narrow to; null when none is. */
  session: { id: string; project_id: string | null } | null;
  initialScope: SearchScopeKind;
  onPick(hit: SearchHit): void;
  onClose(): void;
  /** How long typing must pause before the search runs. */
  debounceMs?: number;
}) {
  const { t, formatDateTime } = useI18n();
  const id = useId();
  const [text, setText] = useState('');
  const [scopeKind, setScopeKind] = useState<SearchScopeKind>(props.initialScope);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const onClose = props.onClose;
  // A click outside the dialog closes it, as Esc does.
  useEffect(() => {
    const onDown = (event: MouseEvent) => {
      if (!dialogRef.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [onClose]);
  const session = props.session;
  const projectId = session?.project_id ?? null;
  const scope = useMemo<SearchScope>(() => {
    if (scopeKind === 'session' && session) return { kind: 'session', sessionId: session.id };
    if (scopeKind === 'project' && projectId) return { kind: 'project', projectId };
    return { kind: 'all' };
  }, [scopeKind, session, projectId]);
  const search = useSearch(props.client, text, scope, props.debounceMs);
  const hits = search.hits;

  // A new query starts at its best hit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query or scope changes
  useEffect(() => setActive(0), [search.query, scope]);
  useEffect(() => {
    const option = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    option?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const optionId = (index: number) => `${id}-hit-${index}`;
  const scopes: SearchScopeKind[] = [
    ...(session ? (['session'] as const) : []),
    ...(projectId ? (['project'] as const) : []),
    'all',
  ];

  let status: string | null = null;
  if (search.error) status = t('search.error', { message: search.error });
  else if (search.loading) status = t('search.searching');
  else if (search.query === '') status = t('search.hint');
  else if (hits.length === 0) status = t('search.none', { query: search.query });

  return (
    <div className="modal-backdrop">
      <div
        ref={dialogRef}
        className="modal search-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('search.title')}
      >
        <div className="search-bar">
          <input
            role="combobox"
            aria-label={t('search.title')}
            aria-expanded={hits.length > 0}
            aria-controls={`${id}-list`}
            aria-activedescendant={hits[active] ? optionId(active) : undefined}
            aria-autocomplete="list"
            placeholder={t('search.placeholder')}
            value={text}
            spellCheck="false"
            ref={focusOnMount}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                props.onClose();
              } else if (e.key === 'ArrowDown') {
                e.preventDefault();
                setActive((i) => Math.min(i + 1, hits.length - 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((i) => Math.max(i - 1, 0));
              } else if (e.key === 'Enter' && hits[active]) {
                e.preventDefault();
                props.onPick(hits[active]);
              }
            }}
          />
          {scopes.length > 1 && (
            <select
              aria-label={t('search.scope')}
              value={scopeKind}
              onChange={(e) => setScopeKind(e.target.value as SearchScopeKind)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') props.onClose();
              }}
            >
              {scopes.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`search.scope.${kind}`)}
                </option>
              ))}
            </select>
          )}
        </div>
        {status && (
          <p className={search.error ? 'error-text' : 'muted search-status'} role="status">
            {status}
          </p>
        )}
        {hits.length > 0 && (
          <div
            className="search-results"
            role="listbox"
            id={`${id}-list`}
            aria-label={t('search.results')}
            ref={listRef}
          >
            {hits.map((hit, i) => (
              // The input keeps focus and drives the list (aria-activedescendant); a click picks too.
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the input above
              <div
                key={`${hit.kind}:${hit.ref}:${hit.session_id}`}
                id={optionId(i)}
                data-index={i}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                className={`search-hit ${i === active ? 'active' : ''}`}
                onMouseMove={() => setActive(i)}
                onClick={() => props.onPick(hit)}
              >
                <span className="search-hit-head">
                  <span className={`search-hit-kind search-hit-kind--${hit.kind}`}>
                    {t(`search.kind.${hit.kind}`)}
                  </span>
                  <span className="search-hit-title">{hit.session_title}</span>
                  <time className="search-hit-date muted" dateTime={hit.created_at}>
                    {formatDateTime(hit.created_at)}
                  </time>
                </span>
                <span className="search-hit-snippet">
                  {splitByRanges(hit.snippet, hit.match_ranges).map((piece, n) =>
                    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one snippet, always in order
                    piece.match ? <mark key={n}>{piece.text}</mark> : <span key={n}>{piece.text}</span>,
                  )}
                </span>
              </div>
            ))}
          </div>
        )}
        <div className="search-footer">
          <span className="muted">{t('search.keys')}</span>
          {search.nextBefore !== null && (
            <button
              type="button"
              className="small-button"
              disabled={search.loadingMore}
              onClick={() => void search.loadMore()}
            >
              {search.loadingMore ? t('common.loading') : t('search.more')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
