import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { ConfirmDialog } from '../ConfirmDialog';
import { conflictPaths } from './revert-conflict';

type Phase =
  | { kind: 'confirm' }
  | { kind: 'conflict'; paths: string[] }
  | { kind: 'error'; message: string; force: boolean };

/**
 * Asks before restoring the project's files to before a turn; when files changed since Cairn recorded
 * them, lists them and offers "Revert anyway". Any other failure shows here, with the action to try again.
 * The revert's own turn arrives through the session's events, so success only closes the dialog.
 */
export function RevertDialog(props: {
  client: CairnClient;
  turnId: string;
  message: string;
  confirmLabel: string;
  onClose(): void;
}) {
  const t = useT();
  const [phase, setPhase] = useState<Phase>({ kind: 'confirm' });
  const [busy, setBusy] = useState(false);

  const revert = async (force: boolean) => {
    setBusy(true);
    try {
      await props.client.revertTurn(props.turnId, { force });
      props.onClose();
    } catch (error) {
      const paths = force ? null : conflictPaths(error);
      setPhase(paths ? { kind: 'conflict', paths } : { kind: 'error', message: messageOf(error), force });
      setBusy(false);
    }
  };

  const common = { busy, onCancel: props.onClose };
  // Each phase is a dialog of its own (its key), so Cancel takes the focus again: Enter never forces.
  const dialog =
    phase.kind === 'conflict' ? (
      <ConfirmDialog
        key="conflict"
        {...common}
        message={t('changes.revert.conflict')}
        confirmLabel={t('changes.revert.force')}
        onConfirm={() => void revert(true)}
      >
        <ul className="revert-conflicts">
          {phase.paths.map((path) => (
            <li key={path}>
              <code>{path}</code>
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    ) : (
      <ConfirmDialog
        key={phase.kind}
        {...common}
        message={props.message}
        confirmLabel={busy ? t('changes.revert.working') : props.confirmLabel}
        onConfirm={() => void revert(phase.kind === 'error' && phase.force)}
      >
        {phase.kind === 'error' && (
          <p className="error-text" role="alert">
            {t('changes.revert.failed', { message: phase.message })}
          </p>
        )}
      </ConfirmDialog>
    );
  // Out of the transcript: a turn's row is moved with a transform, which would pin a fixed backdrop to it.
  return createPortal(dialog, document.body);
}
