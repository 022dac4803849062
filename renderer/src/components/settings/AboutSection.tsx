import { useEffect, useId, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { About, Capabilities } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { CapabilityList, modeLabel } from '../ConnectionScreen';
import '../../i18n/messages/settings';

type Loaded<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string };

/** App and server versions, data directory, runtime, mode and features. */
export function AboutSection({ client, appVersion }: { client: CairnClient; appVersion: string }) {
  const t = useT();
  const id = useId();
  const [about, setAbout] = useState<Loaded<About>>({ state: 'loading' });
  const [caps, setCaps] = useState<Loaded<Capabilities>>({ state: 'loading' });

  useEffect(() => {
    let alive = true;
    client.about().then(
      (value) => alive && setAbout({ state: 'ok', value }),
      (error: unknown) => alive && setAbout({ state: 'error', message: messageOf(error) }),
    );
    client.capabilities().then(
      (value) => alive && setCaps({ state: 'ok', value }),
      (error: unknown) => alive && setCaps({ state: 'error', message: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [client]);

  const error = about.state === 'error' ? about.message : caps.state === 'error' ? caps.message : null;
  const pending = t('settings.about.loading');
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('settings.about.title')}</h2>
      <dl className="about-list">
        <div>
          <dt>{t('settings.about.appVersion')}</dt>
          <dd>{appVersion}</dd>
        </div>
        {about.state === 'ok' && (
          <>
            <div>
              <dt>{t('settings.about.serverVersion')}</dt>
              <dd>{about.value.version}</dd>
            </div>
            <div>
              <dt>{t('settings.about.dataDir')}</dt>
              <dd className="settings-mono settings-break">{about.value.data_dir}</dd>
            </div>
            <div>
              <dt>{t('settings.about.runtime')}</dt>
              <dd>
                {t('settings.about.runtimeValue', { node: about.value.node, platform: about.value.platform })}
              </dd>
            </div>
          </>
        )}
        {caps.state === 'ok' && (
          <>
            <div>
              <dt>{t('settings.about.mode')}</dt>
              <dd>{modeLabel(t, caps.value.mode)}</dd>
            </div>
            <div>
              <dt>{t('settings.about.features')}</dt>
              <dd>
                <CapabilityList capabilities={caps.value} label={t('settings.about.features')} />
              </dd>
            </div>
          </>
        )}
      </dl>
      {(about.state === 'loading' || caps.state === 'loading') && !error && (
        <p className="settings-muted">{pending}</p>
      )}
      {error && (
        <p className="settings-error" role="alert">
          {t('settings.about.error', { message: error })}
        </p>
      )}
    </section>
  );
}
