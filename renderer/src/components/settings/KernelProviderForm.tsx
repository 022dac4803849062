import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type {
  KernelProviderKind,
  KernelProviderSettings,
  KernelProviderTestResult,
  UpdateKernelProviderRequest,
} from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { providerRequest, withoutSecret } from './kernel-provider-request';
import '../../i18n/messages/settings';

type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'tokenRemoved' }
  | { kind: 'error'; message: string };

type TestStatus =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'ok'; result: KernelProviderTestResult }
  | { kind: 'error'; message: string };

/**
 * Where kernels start: the Cairn server, or a Jupyter Server (address, kernelspec, write-only token). The
 * token field is uncontrolled and emptied as soon as it is read, like the model key; the server only says
 * whether one is saved. Set from the server's environment, everything is shown read-only.
 */
export function KernelProviderForm(props: {
  client: CairnClient;
  onProvider(kind: KernelProviderKind): void;
}) {
  const { client, onProvider } = props;
  const t = useT();
  const id = useId();
  const [settings, setSettings] = useState<KernelProviderSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [kind, setKind] = useState<KernelProviderKind>('local');
  const [url, setUrl] = useState('');
  const [kernelName, setKernelName] = useState('');
  const tokenRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [test, setTest] = useState<TestStatus>({ kind: 'idle' });

  const apply = useCallback(
    (next: KernelProviderSettings) => {
      setSettings(next);
      setKind(next.provider);
      setUrl(next.jupyter.url ?? '');
      setKernelName(next.jupyter.kernel_name);
      onProvider(next.provider);
    },
    [onProvider],
  );

  const load = useCallback(async () => {
    try {
      apply(await client.kernelProvider());
      setLoadError(null);
    } catch (error) {
      setLoadError(messageOf(error));
    }
  }, [client, apply]);

  useEffect(() => {
    void load();
  }, [load]);

  /** The request from the form; the token leaves its field as it is read. */
  const readRequest = (): { request: UpdateKernelProviderRequest; token: string } => {
    const token = tokenRef.current?.value ?? '';
    if (tokenRef.current) tokenRef.current.value = '';
    return { request: providerRequest({ kind, url, kernelName, token }), token };
  };

  /** Saves; removing the token alone keeps what the user has in the form (a chosen provider, an address). */
  const send = async (request: UpdateKernelProviderRequest, token: string, done: Status) => {
    setStatus({ kind: 'saving' });
    setTest({ kind: 'idle' });
    try {
      const next = await client.setKernelProvider(request);
      if (done.kind === 'tokenRemoved') {
        setSettings(next);
        onProvider(next.provider);
      } else {
        apply(next);
      }
      setStatus(done);
    } catch (error) {
      setStatus({ kind: 'error', message: withoutSecret(messageOf(error), token) });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { request, token } = readRequest();
    void send(request, token, { kind: 'saved' });
  };

  const runTest = async () => {
    const { request, token } = readRequest();
    setStatus({ kind: 'idle' });
    setTest({ kind: 'testing' });
    try {
      setTest({ kind: 'ok', result: await client.testKernelProvider(request) });
    } catch (error) {
      setTest({ kind: 'error', message: withoutSecret(messageOf(error), token) });
    }
  };

  if (loadError) {
    return (
      <div className="settings-error" role="alert">
        <p>{t('settings.provider.loadError', { message: loadError })}</p>
        <button type="button" className="settings-button" onClick={() => void load()}>
          {t('settings.kernels.retry')}
        </button>
      </div>
    );
  }
  if (!settings) return <p className="settings-muted">{t('settings.provider.loading')}</p>;

  const fromEnv = settings.env_override;
  const busy = status.kind === 'saving';
  const locked = fromEnv || busy;
  const tokenStatusId = `${id}-token-status`;
  const tokenHintId = `${id}-token-hint`;

  return (
    <form
      className="provider-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
    >
      <h3 id={`${id}-title`}>{t('settings.provider.title')}</h3>
      <p id={`${id}-description`} className="settings-hint">
        {t('settings.provider.description')}
      </p>
      {fromEnv && (
        <div className="settings-notice" role="note">
          <p>{t('settings.provider.envNotice')}</p>
        </div>
      )}
      <fieldset className="provider-kinds">
        <legend>{t('settings.provider.kind')}</legend>
        {(['local', 'jupyter'] as const).map((option) => (
          <label key={option} className="provider-kind">
            <input
              type="radio"
              name={`${id}-kind`}
              value={option}
              checked={kind === option}
              disabled={locked}
              onChange={() => {
                setKind(option);
                setStatus({ kind: 'idle' });
                setTest({ kind: 'idle' });
              }}
            />
            {t(`settings.provider.${option}`)}
          </label>
        ))}
      </fieldset>

      {kind === 'jupyter' && (
        <div className="model-form-grid">
          <div className="settings-field">
            <label htmlFor={`${id}-url`}>{t('settings.provider.url')}</label>
            <input
              id={`${id}-url`}
              type="url"
              className="settings-mono"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              disabled={locked}
              placeholder="https://jupyter.example.com/"
              aria-describedby={`${id}-url-hint`}
              autoComplete="off"
              spellCheck="false"
            />
            <p id={`${id}-url-hint`} className="settings-hint">
              {t('settings.provider.urlHint')}
            </p>
          </div>
          <div className="settings-field">
            <label htmlFor={`${id}-kernel`}>{t('settings.provider.kernelName')}</label>
            <input
              id={`${id}-kernel`}
              type="text"
              className="settings-mono"
              value={kernelName}
              onChange={(event) => setKernelName(event.target.value)}
              disabled={locked}
              aria-describedby={`${id}-kernel-hint`}
              autoComplete="off"
              spellCheck="false"
            />
            <p id={`${id}-kernel-hint`} className="settings-hint">
              {t('settings.provider.kernelNameHint')}
            </p>
          </div>
          <div className="settings-field">
            <label htmlFor={`${id}-token`}>{t('settings.provider.token')}</label>
            <div className="key-row">
              <input
                id={`${id}-token`}
                ref={tokenRef}
                type="password"
                className="key-input"
                disabled={locked}
                autoComplete="off"
                spellCheck="false"
                autoCapitalize="off"
                placeholder={
                  settings.jupyter.has_token
                    ? t('settings.provider.tokenPlaceholderReplace')
                    : t('settings.provider.tokenPlaceholderNew')
                }
                aria-describedby={`${tokenStatusId} ${tokenHintId}`}
              />
              <span
                id={tokenStatusId}
                className={
                  settings.jupyter.has_token
                    ? 'settings-badge settings-badge-success'
                    : 'settings-badge settings-badge-warning'
                }
              >
                {settings.jupyter.has_token
                  ? t('settings.provider.tokenSaved')
                  : t('settings.provider.tokenNotSaved')}
              </span>
              {settings.jupyter.has_token && (
                <button
                  type="button"
                  className="settings-button settings-button-danger-quiet"
                  disabled={locked}
                  onClick={() =>
                    void send({ provider: settings.provider, clear_token: true }, '', {
                      kind: 'tokenRemoved',
                    })
                  }
                >
                  {t('settings.provider.removeToken')}
                </button>
              )}
            </div>
            <p id={tokenHintId} className="settings-hint">
              {t('settings.provider.tokenHint')}
            </p>
          </div>
        </div>
      )}

      <div className="settings-actions">
        <button type="submit" className="settings-button settings-button-primary" disabled={locked}>
          {busy ? t('settings.provider.saving') : t('settings.provider.save')}
        </button>
        {kind === 'jupyter' && (
          <button
            type="button"
            className="settings-button"
            disabled={test.kind === 'testing'}
            onClick={() => void runTest()}
          >
            {test.kind === 'testing' ? t('settings.provider.testing') : t('settings.provider.test')}
          </button>
        )}
      </div>
      <div aria-live="polite">
        {status.kind === 'saved' && <p className="settings-success">{t('settings.provider.saved')}</p>}
        {status.kind === 'tokenRemoved' && (
          <p className="settings-success">{t('settings.provider.tokenRemoved')}</p>
        )}
        {test.kind === 'ok' && (
          <p className="settings-success">
            {t('settings.provider.testOk', {
              version: test.result.version,
              kernels: test.result.kernel_names.join(', ') || t('settings.provider.testNoKernels'),
            })}
          </p>
        )}
      </div>
      {status.kind === 'error' && (
        <p className="settings-field-error" role="alert">
          {t('settings.provider.error', { message: status.message })}
        </p>
      )}
      {test.kind === 'error' && (
        <p className="settings-field-error" role="alert">
          {t('settings.provider.error', { message: test.message })}
        </p>
      )}
    </form>
  );
}
