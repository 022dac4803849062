import { useMemo, useState } from 'react';
import type { Project, Session } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { focusOnMount } from './focus-on-mount';
import '../i18n/messages/dialogs';

/** Ctrl/Cmd+K: filter sessions by title or project and jump to one with the keyboard. */
export function SessionSwitcher(props: {
  sessions: Session[];
  projects: Project[];
  onPick(id: string): void;
  onClose(): void;
}) {
  const t = useT();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const names = useMemo(() => new Map(props.projects.map((p) => [p.id, p.name])), [props.projects]);
  const matches = props.sessions.filter((s) => {
    const haystack = `${s.title} ${s.project_id ? (names.get(s.project_id) ?? '') : ''}`.toLowerCase();
    return haystack.includes(query.toLowerCase());
  });
  return (
    <div className="modal-backdrop">
      <div className="modal switcher" role="dialog" aria-modal="true" aria-label={t('switcher.title')}>
        <input
          aria-label={t('switcher.title')}
          placeholder={t('switcher.placeholder')}
          value={query}
          ref={focusOnMount}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') props.onClose();
            else if (e.key === 'ArrowDown') setActive((i) => Math.min(i + 1, matches.length - 1));
            else if (e.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
            else if (e.key === 'Enter' && matches[active]) props.onPick(matches[active].id);
          }}
        />
        <ul>
          {matches.length === 0 && <li className="muted">{t('switcher.empty')}</li>}
          {matches.map((s, i) => (
            <li key={s.id}>
              <button
                type="button"
                className={`switcher-item ${i === active ? 'active' : ''}`}
                onClick={() => props.onPick(s.id)}
              >
                {s.title}
                {s.project_id && <span className="muted"> · {names.get(s.project_id)}</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
