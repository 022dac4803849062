import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import type { TurnView } from '../../state/turn-view';
import { RevertButton } from './RevertButton';
import { TurnChanges } from './TurnChanges';

/** The ordinal a revert turn restored to, from its prompt ("Restore files to before turn N"). */
function restoredOrdinal(prompt: string): number | null {
  const match = /(\d+)\s*$/.exec(prompt);
  return match ? Number(match[1]) : null;
}

/**
 * A revert, where a prompt would be: a small system card saying which turn's start the files went back to,
 * what it changed, what it could not put back (from its live event), and "Undo this revert".
 */
export function RevertCard(props: { view: TurnView; client: CairnClient; revert?: { disabled: boolean } }) {
  const t = useT();
  const { turn, notRestored } = props.view;
  const ordinal = restoredOrdinal(turn.prompt);
  return (
    <div className="revert-card">
      <div className="revert-card-head">
        <p className="revert-card-title">
          <span aria-hidden="true">↺ </span>
          {ordinal === null
            ? t('changes.revertCard.titleUnknown')
            : t('changes.revertCard.title', { ordinal })}
        </p>
        {props.revert && (
          <RevertButton
            client={props.client}
            turnId={turn.id}
            label={t('changes.revertCard.undo')}
            message={t('changes.revertCard.undoConfirm')}
            confirmLabel={t('changes.revertCard.undo')}
            disabled={props.revert.disabled}
          />
        )}
      </div>
      {notRestored && notRestored.length > 0 && (
        <div className="revert-card-missed" role="note">
          <p>{t('changes.revertCard.notRestored')}</p>
          <ul>
            {notRestored.map((file) => (
              <li key={file.path}>
                <code>{file.path}</code> — {file.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <TurnChanges turn={turn} client={props.client} />
    </div>
  );
}
