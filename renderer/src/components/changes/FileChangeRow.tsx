import { useMemo, useState } from 'react';
import type { FileChange } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { DiffView } from '../DiffView';
import { parseUnifiedDiff } from './unified-diff';
import '../../i18n/messages/changed-files';

/** What shows in place of a diff when there is none to show, or null when there is one. */
function noDiffText(change: FileChange): string | null {
  if (change.binary) return 'changes.binary';
  if (change.too_large) return 'changes.tooLarge';
  if (change.diff === null) return 'changes.noDiff';
  return null;
}

/**
 * One changed file: its status in words (colour only repeats it), its path as selectable text, lines added
 * and removed, and its diff on demand.
 */
export function FileChangeRow({ change }: { change: FileChange }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const lines = useMemo(
    () => (open && change.diff !== null ? parseUnifiedDiff(change.diff) : []),
    [open, change.diff],
  );
  const missing = noDiffText(change);
  const counted = !change.binary && !change.too_large;
  return (
    <li className="file-change" data-path={change.path} data-status={change.status}>
      <div className="file-change-head">
        <button
          type="button"
          className="file-change-toggle"
          aria-expanded={open}
          aria-label={t('changes.toggleDiff', { path: change.path })}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
        <span className={`file-change-status file-change-status--${change.status}`}>
          {t(`changes.status.${change.status}`)}
        </span>
        <code className="file-change-path">{change.path}</code>
        {counted && (
          <span
            className="file-change-stats"
            title={t('changes.statsLabel', { additions: change.additions, deletions: change.deletions })}
          >
            <span className="file-change-additions">+{change.additions}</span>{' '}
            <span className="file-change-deletions">−{change.deletions}</span>
          </span>
        )}
      </div>
      {open &&
        (missing ? (
          <p className="file-change-note muted">{t(missing)}</p>
        ) : lines.length === 0 ? (
          <p className="file-change-note muted">{t('changes.emptyFile')}</p>
        ) : (
          <DiffView lines={lines} />
        ))}
    </li>
  );
}
