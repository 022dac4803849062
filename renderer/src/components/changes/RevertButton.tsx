import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { RevertDialog } from './RevertDialog';

/** A turn's "undo its file changes" action, with its dialog. Disabled while a turn runs in the session. */
export function RevertButton(props: {
  client: CairnClient;
  turnId: string;
  label: string;
  title?: string;
  /** What the dialog asks. */
  message: string;
  confirmLabel: string;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="turn-action changes-revert"
        title={props.title}
        disabled={props.disabled}
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">↶ </span>
        {props.label}
      </button>
      {open && (
        <RevertDialog
          client={props.client}
          turnId={props.turnId}
          message={props.message}
          confirmLabel={props.confirmLabel}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
