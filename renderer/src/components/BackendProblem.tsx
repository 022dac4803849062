import { useId, useState } from 'react';
import type { DesktopBridge } from '../../../sidecar/src/protocol';
import { bridgeErrorMessage } from '../api/connection';
import { useT } from '../i18n/i18n';
import '../i18n/messages/backend';

/**
 * The desktop app has no backend: the host could not start its sidecar, gave up after repeated crashes,
 * or cannot reach the remote server. Shows the host's own message and what can be done.
 */
export function BackendProblem(props: {
  message: string;
  bridge: DesktopBridge | null;
  /** The backend that failed was a remote server, so going back to this computer may help. */
  remote: boolean;
  onRetry(): void;
}) {
  const t = useT();
  const id = useId();
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const switchToLocal = async () => {
    if (!props.bridge) return;
    setSwitching(true);
    setError(null);
    try {
      // The host reloads the window once it has switched.
      await props.bridge.clearRemoteBackend();
    } catch (e) {
      setError(bridgeErrorMessage(e));
      setSwitching(false);
    }
  };

  return (
    <main className="connection-screen">
      <section className="connection-card backend-problem" role="alert" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="connection-title">
          {t('backendProblem.title')}
        </h1>
        <p className="connection-intro">{t('backendProblem.intro')}</p>
        <p className="backend-problem-message">{props.message}</p>
        <div className="settings-actions">
          <button type="button" className="settings-button settings-button-primary" onClick={props.onRetry}>
            {t('backendProblem.retry')}
          </button>
          {props.remote && props.bridge && (
            <button
              type="button"
              className="settings-button"
              disabled={switching}
              onClick={() => void switchToLocal()}
            >
              {switching ? t('backend.switching') : t('backend.useLocal')}
            </button>
          )}
        </div>
        {error && <p className="settings-field-error">{t('backend.error', { message: error })}</p>}
      </section>
    </main>
  );
}
