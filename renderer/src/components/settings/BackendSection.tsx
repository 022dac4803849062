import { type FormEvent, useId, useState } from 'react';
import { bridgeErrorMessage, type Desktop } from '../../api/connection';
import { useT } from '../../i18n/i18n';
import { BackendAddressFields, useBackendAddress } from '../BackendAddressFields';
import { ConfirmDialog } from '../ConfirmDialog';
import '../../i18n/messages/backend';

type Status = { kind: 'idle' } | { kind: 'switching' } | { kind: 'error'; message: string };

/**
 * Settings → Backend, in the desktop app only: which backend it uses and who chose it, a form to use a
 * remote server (URL + write-only token, kept in the keychain by the host), and the way back to this
 * computer. The host validates, switches and reloads the window; its refusals are shown here.
 */
export function BackendSection({ desktop, onTest }: { desktop: Desktop; onTest: (() => void) | null }) {
  const t = useT();
  const id = useId();
  const { info, bridge } = desktop;
  const remote = info.mode === 'remote';
  const fromEnv = info.source === 'environment';
  const address = useBackendAddress(remote && !fromEnv ? info.url : '', {
    url: t('backend.validation.url'),
    token: t('backend.validation.token'),
  });
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [confirming, setConfirming] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields = address.read();
    // Write-only: the token leaves the field as soon as it is read.
    if (address.tokenRef.current) address.tokenRef.current.value = '';
    if (!fields) return;
    setStatus({ kind: 'switching' });
    try {
      // On success the host reloads the window; until then the form stays busy.
      await bridge.setRemoteBackend(fields);
    } catch (error) {
      setStatus({ kind: 'error', message: bridgeErrorMessage(error).split(fields.token).join('••••') });
    }
  };

  const switchToLocal = async () => {
    setConfirming(false);
    setStatus({ kind: 'switching' });
    try {
      await bridge.clearRemoteBackend();
    } catch (error) {
      setStatus({ kind: 'error', message: bridgeErrorMessage(error) });
    }
  };

  const busy = status.kind === 'switching';
  // Each control is disabled itself: a disabled fieldset does not show in the controls' own state.
  const locked = fromEnv || busy;
  return (
    <section className="settings-section backend-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('backend.title')}</h2>
      <dl className="about-list">
        <div>
          <dt>{t('backend.mode')}</dt>
          <dd>
            {remote ? (
              <>
                {t('backend.mode.remote')}{' '}
                <span className="settings-mono settings-break" data-testid="backend-url">
                  {info.url}
                </span>
              </>
            ) : (
              t('backend.mode.local')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('backend.source')}</dt>
          <dd>{t(`backend.source.${info.source}`)}</dd>
        </div>
      </dl>
      {fromEnv && (
        <div className="settings-notice" role="note">
          <p>{t('backend.envNotice')}</p>
        </div>
      )}
      {remote && (
        <div className="settings-actions">
          {onTest && (
            <button type="button" className="settings-button" onClick={onTest}>
              {t('backend.test')}
            </button>
          )}
          <button
            type="button"
            className="settings-button"
            disabled={fromEnv || busy}
            onClick={() => setConfirming(true)}
          >
            {t('backend.useLocal')}
          </button>
        </div>
      )}

      <form className="backend-form" onSubmit={submit} noValidate aria-labelledby={`${id}-form-title`}>
        <h3 id={`${id}-form-title`}>{remote ? t('backend.form.titleChange') : t('backend.form.title')}</h3>
        <p className="settings-hint">{t('backend.form.intro')}</p>
        <div className="backend-form-fields">
          <BackendAddressFields
            id={id}
            address={address}
            labels={{
              url: t('backend.form.url'),
              token: t('backend.form.token'),
              tokenHint: t('backend.form.tokenHint'),
            }}
            placeholders={{
              url: 'https://cairn.example.com',
              token: remote ? t('backend.form.tokenReplace') : undefined,
            }}
            urlAutoComplete="off"
            disabled={locked}
          />
          <div className="settings-actions">
            <button type="submit" className="settings-button settings-button-primary" disabled={locked}>
              {busy ? t('backend.switching') : t('backend.form.submit')}
            </button>
          </div>
        </div>
        {status.kind === 'error' && (
          <p className="settings-field-error" role="alert">
            {t('backend.error', { message: status.message })}
          </p>
        )}
      </form>

      {confirming && (
        <ConfirmDialog
          message={t('backend.confirmLocal')}
          confirmLabel={t('backend.useLocal')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void switchToLocal()}
        />
      )}
    </section>
  );
}
