import { type FormEvent, useId, useRef, useState } from 'react';
import { bridgeErrorMessage, type Desktop } from '../../api/connection';
import { useT } from '../../i18n/i18n';
import { ConfirmDialog } from '../ConfirmDialog';

type Status = { kind: 'idle' } | { kind: 'switching' } | { kind: 'error'; message: string };

/** An http(s) address without trailing slashes, or null. The host checks the rest (https, loopback). */
function normalizeUrl(raw: string): string | null {
  try {
    const parsed = new URL(raw.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

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
  const [url, setUrl] = useState(remote && !fromEnv ? info.url : '');
  const tokenRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<{ url?: string; token?: string }>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [confirming, setConfirming] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = tokenRef.current;
    const token = input?.value.trim() ?? '';
    // Write-only: the token leaves the field as soon as it is read.
    if (input) input.value = '';
    const normalized = normalizeUrl(url);
    const next: typeof errors = {};
    if (!normalized) next.url = t('backend.validation.url');
    if (!token) next.token = t('backend.validation.token');
    setErrors(next);
    if (next.url) return urlRef.current?.focus();
    if (next.token || !normalized) return tokenRef.current?.focus();
    setStatus({ kind: 'switching' });
    try {
      // On success the host reloads the window; until then the form stays busy.
      await bridge.setRemoteBackend({ url: normalized, token });
    } catch (error) {
      setStatus({ kind: 'error', message: bridgeErrorMessage(error).split(token).join('••••') });
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
  const urlError = `${id}-url-error`;
  const tokenError = `${id}-token-error`;
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
          <div className="settings-field">
            <label htmlFor={`${id}-url`}>{t('backend.form.url')}</label>
            <input
              id={`${id}-url`}
              ref={urlRef}
              type="url"
              inputMode="url"
              spellCheck={false}
              autoComplete="off"
              placeholder="https://cairn.example.com"
              disabled={locked}
              value={url}
              onChange={(e) => {
                setUrl(e.target.value);
                setErrors((x) => ({ ...x, url: undefined }));
              }}
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={errors.url ? urlError : undefined}
            />
            {errors.url && (
              <p id={urlError} className="settings-field-error">
                {errors.url}
              </p>
            )}
          </div>
          <div className="settings-field">
            <label htmlFor={`${id}-token`}>{t('backend.form.token')}</label>
            <input
              id={`${id}-token`}
              ref={tokenRef}
              type="password"
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="off"
              disabled={locked}
              placeholder={remote ? t('backend.form.tokenReplace') : undefined}
              onChange={() => setErrors((x) => ({ ...x, token: undefined }))}
              aria-invalid={errors.token ? true : undefined}
              aria-describedby={errors.token ? `${tokenError} ${id}-token-hint` : `${id}-token-hint`}
            />
            <p id={`${id}-token-hint`} className="settings-hint">
              {t('backend.form.tokenHint')}
            </p>
            {errors.token && (
              <p id={tokenError} className="settings-field-error">
                {errors.token}
              </p>
            )}
          </div>
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
