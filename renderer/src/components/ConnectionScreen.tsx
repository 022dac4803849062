import { type FormEvent, useId, useRef, useState } from 'react';
import type { Capabilities } from '../../../sidecar/src/protocol';
import { rememberBackend } from '../api/connection';
import { type ProbeResult, probeBackend } from '../api/probe';
import { type Translate, useT } from '../i18n/i18n';
import { BackendAddressFields, useBackendAddress } from './BackendAddressFields';
import '../i18n/messages/settings';

const CAPABILITY_FLAGS = ['projects', 'shell', 'files', 'kernels', 'mcp'] as const;

/** The server's feature flags as a list of "available / not available" lines. */
export function CapabilityList({ capabilities, label }: { capabilities: Capabilities; label: string }) {
  const t = useT();
  return (
    <ul className="capability-list" aria-label={label}>
      {CAPABILITY_FLAGS.map((flag) => {
        const feature = t(`settings.capability.${flag}`);
        const on = capabilities[flag];
        return (
          <li key={flag} className={on ? 'capability capability-on' : 'capability capability-off'}>
            <span aria-hidden="true" className="capability-mark">
              {on ? '✓' : '–'}
            </span>
            {t(on ? 'settings.capability.on' : 'settings.capability.off', { feature })}
          </li>
        );
      })}
    </ul>
  );
}

/** The server's mode in words. */
export function modeLabel(t: Translate, mode: Capabilities['mode']): string {
  return t(`settings.mode.${mode}`);
}

/**
 * Takes a token out of a pasted address (`…/#token=…` or `?token=…`, as `cairn serve` prints it), so the
 * token never travels in a URL. Returns the address without it.
 */
function splitToken(raw: string): { url: string; token: string | null } {
  if (!/token=/i.test(raw)) return { url: raw, token: null };
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return { url: raw, token: null };
  }
  const hash = new URLSearchParams(parsed.hash.replace(/^#/, ''));
  const token = hash.get('token') ?? parsed.searchParams.get('token');
  if (!token) return { url: raw, token: null };
  hash.delete('token');
  parsed.searchParams.delete('token');
  const rest = hash.toString();
  parsed.hash = rest ? `#${rest}` : '';
  const url = parsed.toString();
  return { url: parsed.pathname === '/' && !parsed.search && !rest ? url.replace(/\/$/, '') : url, token };
}

type Pending = 'test' | 'connect' | null;
interface Probed {
  url: string;
  token: string;
  result: ProbeResult;
}

/**
 * Asks for the server address and access token when no backend is known (a remote server, or a browser
 * tab that lost its token). The token input is uncontrolled so the token is never mirrored into the DOM.
 */
export function ConnectionScreen({
  initialUrl,
  onConnected,
}: {
  initialUrl: string;
  onConnected: (backend: { url: string; token: string }) => void;
}) {
  const t = useT();
  const id = useId();
  const address = useBackendAddress(splitToken(initialUrl).url, {
    url: t('connection.validation.url'),
    token: t('connection.validation.token'),
  });
  const [probed, setProbed] = useState<Probed | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [tokenMoved, setTokenMoved] = useState(false);
  const sequence = useRef(0);

  const invalidate = () => {
    sequence.current += 1;
    setProbed(null);
    setPending(null);
  };

  const onUrlChange = (value: string) => {
    const split = splitToken(value);
    const tokenInput = address.tokenRef.current;
    if (split.token !== null && tokenInput) {
      tokenInput.value = split.token;
      setTokenMoved(true);
      address.clearError('token');
    }
    address.setUrl(split.url);
    address.clearError('url');
    invalidate();
  };

  const probe = async (fields: { url: string; token: string }, kind: Exclude<Pending, null>) => {
    const mine = ++sequence.current;
    setPending(kind);
    setProbed(null);
    const result = await probeBackend(fields.url, fields.token);
    if (mine !== sequence.current) return null;
    setPending(null);
    setProbed({ ...fields, result });
    return result;
  };

  const test = async () => {
    const fields = address.read();
    if (fields) await probe(fields, 'test');
  };

  const connect = async (event: FormEvent) => {
    event.preventDefault();
    const fields = address.read();
    if (!fields) return;
    const known =
      probed && probed.url === fields.url && probed.token === fields.token && probed.result.kind === 'ok';
    const result = known ? probed.result : await probe(fields, 'connect');
    if (result?.kind !== 'ok') return;
    rememberBackend(fields);
    onConnected(fields);
  };

  return (
    <main className="connection-screen">
      <form className="connection-card" onSubmit={connect} noValidate aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="connection-title">
          {t('connection.title')}
        </h1>
        <p className="connection-intro">{t('connection.intro')}</p>

        <BackendAddressFields
          id={id}
          address={address}
          labels={{
            url: t('connection.url'),
            urlHint: t('connection.urlHint'),
            token: t('connection.token'),
            tokenHint: tokenMoved ? t('connection.tokenMoved') : t('connection.tokenHint'),
          }}
          urlAutoComplete="url"
          onUrlChange={onUrlChange}
          onTokenChange={() => {
            setTokenMoved(false);
            invalidate();
          }}
        />

        <div className="settings-actions">
          <button type="button" className="settings-button" onClick={test} disabled={pending !== null}>
            {pending === 'test' ? t('connection.testing') : t('connection.test')}
          </button>
          <button
            type="submit"
            className="settings-button settings-button-primary"
            disabled={pending !== null}
          >
            {pending === 'connect' ? t('connection.connecting') : t('connection.connect')}
          </button>
        </div>

        <div className="connection-result-region" aria-live="polite">
          {probed && <ProbeOutcome url={probed.url} result={probed.result} />}
        </div>
      </form>
    </main>
  );
}

function ProbeOutcome({ url, result }: { url: string; result: ProbeResult }) {
  const t = useT();
  switch (result.kind) {
    case 'unreachable':
    case 'not_cairn':
      return (
        <div className={`connection-result connection-result-${result.kind}`} data-kind={result.kind}>
          <p className="connection-result-title">
            {t(
              result.kind === 'unreachable' ? 'connection.result.unreachable' : 'connection.result.notCairn',
              {
                url,
              },
            )}
          </p>
          <p className="connection-result-details">
            {t('connection.result.details', { message: result.message })}
          </p>
        </div>
      );
    case 'token_rejected':
      return (
        <div className="connection-result connection-result-token_rejected" data-kind={result.kind}>
          <p className="connection-result-title">
            {t('connection.result.tokenRejected', { url, version: result.version })}
          </p>
        </div>
      );
    case 'ok':
      return (
        <div className="connection-result connection-result-ok" data-kind={result.kind}>
          <p className="connection-result-title">
            {t('connection.result.ok', { url, version: result.version })}
          </p>
          <p>{t('connection.result.mode', { mode: modeLabel(t, result.capabilities.mode) })}</p>
          <CapabilityList capabilities={result.capabilities} label={t('connection.features')} />
        </div>
      );
  }
}
