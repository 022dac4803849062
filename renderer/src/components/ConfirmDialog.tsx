import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n';
import { focusOnMount } from './focus-on-mount';

/** A small modal that asks before something cannot be undone. */
export function ConfirmDialog(props: {
  message: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  /** More than the message: a list of what the action touches, an error. */
  children?: ReactNode;
  /** The action is under way: its button waits. */
  busy?: boolean;
  /** The cancel button's label when "Cancel" is not the word (an error to close). */
  cancelLabel?: string;
}) {
  const t = useT();
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-label={props.message}
        onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}
      >
        <p>{props.message}</p>
        {props.children}
        <div className="modal-actions">
          <button type="button" ref={focusOnMount} onClick={props.onCancel}>
            {props.cancelLabel ?? t('common.cancel')}
          </button>
          <button type="button" className="danger-button" onClick={props.onConfirm} disabled={props.busy}>
            {props.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
