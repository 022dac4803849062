import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import type { TurnView } from '../../state/turn-view';
import { RevertButton } from './RevertButton';
import { TurnChanges } from './TurnChanges';

/**
 * The ordinal a revert turn restored to, from its prompt ("Restore files to before turn N"): only for when the
 * reverted turn is not loaded (an earlier page), as the prompt is the server's English.
 */
function promptOrdinal(prompt: string): number | null {
  const match = /(\d+)\s*$/.exec(prompt);
  return match ? Number(match[1]) : null;
}

/**
 * A revert, where a prompt would be: a small system card saying which turn's start the files went back to,
 * what it changed, what it could not put back (kept on its turn), and "Undo this revert".
 */
export function RevertCard(props: {
  view: TurnView;
  client: CairnClient;
  revert?: { disabled: boolean };
  /** The ordinal of the turn it restored to (`reverted_turn_id`), when that turn is loaded. */
  revertedOrdinal?: number;
}) {
  const t = useT();
  const { turn } = props.view;
  const ordinal = props.revertedOrdinal ?? promptOrdinal(turn.prompt);
  const notRestored = turn.not_restored;
  return (
    <div className="revert-card">
      <div className="revert-card-head">
        <p className="revert-card-title">
          <span aria-hidden="true">↺ </span>
          {ordinal === null
            ? t('changes.revertCard.titleUnknown')
            : t('changes.revertCard.title', { ordinal })}
        </p>
        {props.revert && turn.files_recorded && (
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
      {notRestored.length > 0 && (
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
