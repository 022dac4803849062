import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import type { CairnClient } from '../api/http-client';
import { useT } from '../i18n/i18n';
import { AboutSection } from './settings/AboutSection';
import { LanguageSection } from './settings/LanguageSection';
import { ModelsSection } from './settings/ModelsSection';

/** The settings page: models (with write-only API keys), language, and about. */
export function SettingsPage({
  client,
  onClose,
  appVersion,
}: {
  client: CairnClient;
  onClose: () => void;
  appVersion: string;
}) {
  const t = useT();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere on the page closes it; the Close button is the control.
    <div className="settings-page" onKeyDown={onKeyDown}>
      <header className="settings-header">
        <h1 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="settings-title">
          {t('settings.title')}
        </h1>
        <button type="button" className="settings-button" onClick={onClose}>
          {t('settings.close')}
        </button>
      </header>
      <div className="settings-body">
        <ModelsSection client={client} />
        <LanguageSection />
        <AboutSection client={client} appVersion={appVersion} />
      </div>
    </div>
  );
}
