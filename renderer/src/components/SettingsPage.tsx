import { type KeyboardEvent, useId, useState } from 'react';
import type { Backend, CairnClient } from '../../../sidecar/src/client';
import type { Desktop } from '../api/connection';
import { useT } from '../i18n/i18n';
import { focusOnMount } from './focus-on-mount';
import { AboutSection } from './settings/AboutSection';
import { BackendSection } from './settings/BackendSection';
import { KernelsSection } from './settings/KernelsSection';
import { LanguageSection } from './settings/LanguageSection';
import { McpSection } from './settings/McpSection';
import { ModelsSection } from './settings/ModelsSection';
import { PermissionsSection } from './settings/PermissionsSection';
import { TestBackendPage } from './settings/TestBackendPage';
import '../i18n/messages/backend';
import '../i18n/messages/settings';

/**
 * The settings page: the backend (desktop app only), models (with write-only API keys), permissions
 * (rules, each project's sandbox), Python kernels (each project's interpreter, the kernel provider),
 * language, and about. With a remote backend it leads to the Test backend page, which does not exist otherwise.
 */
export function SettingsPage({
  client,
  backend,
  desktop = null,
  remote = false,
  onClose,
  appVersion,
}: {
  client: CairnClient;
  /** The backend the app talks to, which Test backend checks. */
  backend?: Backend;
  desktop?: Desktop | null;
  /** The backend is a remote server (desktop remote mode, or a browser on a remote server). */
  remote?: boolean;
  onClose: () => void;
  appVersion: string;
}) {
  const [testing, setTesting] = useState(false);
  const canTest = remote && backend !== undefined;
  if (testing && canTest) return <TestBackendPage backend={backend} onBack={() => setTesting(false)} />;
  return (
    <SettingsMain
      client={client}
      backend={backend}
      desktop={desktop}
      onTest={canTest ? () => setTesting(true) : null}
      onClose={onClose}
      appVersion={appVersion}
    />
  );
}

function SettingsMain(props: {
  client: CairnClient;
  backend: Backend | undefined;
  desktop: Desktop | null;
  onTest: (() => void) | null;
  onClose: () => void;
  appVersion: string;
}) {
  const { client, desktop, onTest, onClose, appVersion } = props;
  const t = useT();
  const id = useId();

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere on the page closes it; the Close button is the control.
    <div className="settings-page" onKeyDown={onKeyDown}>
      <header className="settings-header">
        <h1 id={`${id}-title`} ref={focusOnMount} tabIndex={-1} className="settings-title">
          {t('settings.title')}
        </h1>
        <button type="button" className="settings-button" onClick={onClose}>
          {t('settings.close')}
        </button>
      </header>
      <div className="settings-body">
        {desktop ? (
          <BackendSection desktop={desktop} onTest={onTest} />
        ) : (
          onTest &&
          props.backend && (
            // A browser on a remote server: no backend to choose, but the connection can be tested.
            <section className="settings-section" aria-labelledby={`${id}-server`}>
              <h2 id={`${id}-server`}>{t('backend.server.title')}</h2>
              <p className="settings-description">
                {t('backend.server.connected')}{' '}
                <span className="settings-mono settings-break">{props.backend.url}</span>
              </p>
              <button type="button" className="settings-button" onClick={onTest}>
                {t('backend.test')}
              </button>
            </section>
          )
        )}
        <ModelsSection client={client} />
        <PermissionsSection client={client} />
        <KernelsSection client={client} />
        <McpSection client={client} />
        <LanguageSection />
        <AboutSection client={client} appVersion={appVersion} />
      </div>
    </div>
  );
}
