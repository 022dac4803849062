import { Suspense, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { FileChange, Turn } from '../../../../sidecar/src/protocol';
import { useI18n } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { FileChangeList } from '../lazy-parts';
import { RevertButton } from './RevertButton';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'done'; changes: FileChange[] }
  | { kind: 'error'; message: string };

/**
 * Under a finished turn that changed files: "N files changed", folded; unfolding reads the diffs once.
 * With `revert`, an action restores the project's files to before the turn (only where they were recorded:
 * the server refuses others). The server's note when the files were not recorded (why); else nothing when
 * the turn changed no file.
 */
export function TurnChanges(props: {
  turn: Turn;
  client: CairnClient;
  /** Offer to undo the changes (absent in a read-only session); disabled while a turn runs. */
  revert?: { disabled: boolean };
}) {
  const { t, formatNumber } = useI18n();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const { turn, client } = props;
  const count = turn.files_changed;
  if (turn.status === 'running' || (!count && turn.files_note === null)) return null;
  // An imported turn, or one whose files were not recorded, cannot be reverted here.
  const revert = turn.files_recorded ? props.revert : undefined;

  const load = async () => {
    setLoaded({ kind: 'loading' });
    try {
      setLoaded({ kind: 'done', changes: (await client.turnChanges(turn.id)).changes });
    } catch (error) {
      setLoaded({ kind: 'error', message: messageOf(error) });
    }
  };
  const toggle = () => {
    if (!open && (loaded === null || loaded.kind === 'error')) void load();
    setOpen(!open);
  };

  return (
    <section className="turn-changes" aria-label={t('changes.listLabel')}>
      {!!count && (
        <div className="turn-changes-head">
          <button type="button" className="turn-changes-toggle" aria-expanded={open} onClick={toggle}>
            <span aria-hidden="true">{open ? '▾ ' : '▸ '}</span>
            {count === 1 ? t('changes.count.one') : t('changes.count.other', { count: formatNumber(count) })}
          </button>
          {revert && (
            <RevertButton
              client={client}
              turnId={turn.id}
              label={t('changes.revert')}
              title={t('changes.revertTitle', { ordinal: turn.ordinal })}
              message={t('changes.revert.confirm', { ordinal: turn.ordinal })}
              confirmLabel={t('changes.revert.confirmButton')}
              disabled={revert.disabled}
            />
          )}
        </div>
      )}
      {turn.files_note !== null && <p className="muted turn-changes-files-note">{turn.files_note}</p>}
      {open && loaded?.kind === 'loading' && <p className="muted turn-changes-note">{t('common.loading')}</p>}
      {open && loaded?.kind === 'error' && (
        <p className="error-text turn-changes-note" role="alert">
          {t('changes.loadFailed', { message: loaded.message })}
        </p>
      )}
      {open && loaded?.kind === 'done' && (
        // Loaded with the first unfolding, as the changes are: "Loading…" covers both.
        <Suspense fallback={<p className="muted turn-changes-note">{t('common.loading')}</p>}>
          <FileChangeList changes={loaded.changes} />
        </Suspense>
      )}
    </section>
  );
}
