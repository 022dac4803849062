import { createPortal } from 'react-dom';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useT } from '../../i18n/i18n';
import { useAsync } from '../../state/use-async';
import { focusOnMount } from '../focus-on-mount';
import { FileChangeList } from './FileChangeList';
import '../../i18n/messages/changed-files';

/**
 * What the session's turns changed in the project's files together (each file from before its first
 * change to after its last), with the server's note when some turns were not recorded.
 */
export function SessionChangesDialog(props: { client: CairnClient; sessionId: string; onClose(): void }) {
  const t = useT();
  const { value, error } = useAsync(() => props.client.sessionChanges(props.sessionId), [props.sessionId]);
  return createPortal(
    <div className="modal-backdrop">
      <div
        className="modal changes-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('changes.session.title')}
        onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
      >
        <h2>{t('changes.session.title')}</h2>
        <div className="changes-dialog-body">
          {error && (
            <p className="error-text" role="alert">
              {t('changes.loadFailed', { message: error })}
            </p>
          )}
          {!error && !value && <p className="muted">{t('common.loading')}</p>}
          {value?.note && <p className="muted changes-dialog-note">{value.note}</p>}
          {value && value.changes.length === 0 && <p className="muted">{t('changes.session.empty')}</p>}
          {value && value.changes.length > 0 && <FileChangeList changes={value.changes} />}
        </div>
        <div className="modal-actions">
          <button type="button" ref={focusOnMount} onClick={props.onClose}>
            {t('changes.revert.close')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
