import { useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { Project } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { messageOf } from '../state/session-controller';
import { focusOnMount } from './focus-on-mount';
import '../i18n/messages/dialogs';

/**
 * Opens a project: the native folder picker when the desktop app runs its own sidecar; otherwise a path
 * typed by hand, since the folder is on the machine that runs the server, which a picker here cannot see.
 */
export function OpenProjectDialog(props: {
  client: CairnClient;
  remote: boolean;
  /** The server's host name when remote, so the dialog can say where the folder must be. */
  remoteHost: string | null;
  onClose(): void;
  onOpened(project: Project): void;
}) {
  const t = useT();
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const open = async (folder: string) => {
    setBusy(true);
    setError(null);
    try {
      props.onOpened(await props.client.openProject(folder));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const pick = async () => {
    const folder = await window.cairn?.pickFolder();
    if (folder) await open(folder);
  };
  const usePicker = Boolean(window.cairn) && !props.remote;
  const host = props.remoteHost;

  return (
    <div className="modal-backdrop">
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={t('openProject.title')}
        onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) void open(path.trim());
        }}
      >
        <h2>{t('openProject.title')}</h2>
        {usePicker ? (
          <button type="button" className="primary-button" onClick={() => void pick()}>
            {t('sidebar.openFolder')}
          </button>
        ) : (
          <>
            <label>
              {host ? t('openProject.pathLabelOnHost', { host }) : t('openProject.pathLabel')}
              <input
                value={path}
                onChange={(e) => setPath(e.target.value)}
                className="mono"
                placeholder="/home/me/my-project"
                ref={focusOnMount}
              />
            </label>
            <p className="muted">
              {host ? t('openProject.hintOnHost', { host }) : t('openProject.hintRemote')}
            </p>
          </>
        )}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={props.onClose}>
            {t('openProject.cancel')}
          </button>
          {!usePicker && (
            <button type="submit" className="primary-button" disabled={busy || !path.trim()}>
              {t('openProject.open')}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
