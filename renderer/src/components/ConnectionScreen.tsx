import { type FormEvent, useId, useRef, useState } from 'react';
import type { Capabilities } from '../../../sidecar/src/protocol';
import { rememberBackend } from '../api/connection';
import { type ProbeResult, probeBackend } from '../api/probe';
import { type Translate, useT } from '../i18n/i18n';

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

/** A usable http(s) base address without trailing slashes, or null. */
function normalizeUrl(raw: string): string | null {
  const trimmed = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username || parsed.password) return null;
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
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
  const initial = splitToken(initialUrl);
  const [url, setUrl] = useState(initial.url);
  const tokenRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const [probed, setProbed] = useState<Probed | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [errors, setErrors] = useState<{ url?: string; token?: string }>({});
  const [tokenMoved, setTokenMoved] = useState(false);
  const sequence = useRef(0);

  const invalidate = () => {
    sequence.current += 1;
    setProbed(null);
    setPending(null);
  };

  const onUrlChange = (value: string) => {
    const split = splitToken(value);
    if (split.token !== null && tokenRef.current) {
      tokenRef.current.value = split.token;
      setTokenMoved(true);
      setErrors((e) => ({ ...e, token: undefined }));
    }
    setUrl(split.url);
    setErrors((e) => ({ ...e, url: undefined }));
    invalidate();
  };

  /** Reads and checks the two fields; focuses the first bad one. */
  const readFields = (): { url: string; token: string } | null => {
    const normalized = normalizeUrl(url);
    const token = tokenRef.current?.value.trim() ?? '';
    const next: { url?: string; token?: string } = {};
    if (!normalized) next.url = t('connection.validation.url');
    if (!token) next.token = t('connection.validation.token');
    setErrors(next);
    if (next.url) urlRef.current?.focus();
    else if (next.token) tokenRef.current?.focus();
    return normalized && token ? { url: normalized, token } : null;
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
    const fields = readFields();
    if (fields) await probe(fields, 'test');
  };

  const connect = async (event: FormEvent) => {
    event.preventDefault();
    const fields = readFields();
    if (!fields) return;
    const known =
      probed && probed.url === fields.url && probed.token === fields.token && probed.result.kind === 'ok';
    const result = known ? probed.result : await probe(fields, 'connect');
    if (result?.kind !== 'ok') return;
    rememberBackend(fields);
    onConnected(fields);
  };

  const urlHintId = `${id}-url-hint`;
  const urlErrorId = `${id}-url-error`;
  const tokenHintId = `${id}-token-hint`;
  const tokenErrorId = `${id}-token-error`;

  return (
    <main className="connection-screen">
      <form className="connection-card" onSubmit={connect} noValidate aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`} className="connection-title">
          {t('connection.title')}
        </h1>
        <p className="connection-intro">{t('connection.intro')}</p>

        <div className="settings-field">
          <label htmlFor={`${id}-url`}>{t('connection.url')}</label>
          <input
            id={`${id}-url`}
            ref={urlRef}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            value={url}
            onChange={(e) => onUrlChange(e.target.value)}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? `${urlErrorId} ${urlHintId}` : urlHintId}
          />
          <p id={urlHintId} className="settings-hint">
            {t('connection.urlHint')}
          </p>
          {errors.url && (
            <p id={urlErrorId} className="settings-field-error">
              {errors.url}
            </p>
          )}
        </div>

        <div className="settings-field">
          <label htmlFor={`${id}-token`}>{t('connection.token')}</label>
          <input
            id={`${id}-token`}
            ref={tokenRef}
            type="password"
            autoComplete="off"
            spellCheck={false}
            onChange={() => {
              setTokenMoved(false);
              setErrors((e) => ({ ...e, token: undefined }));
              invalidate();
            }}
            aria-invalid={errors.token ? true : undefined}
            aria-describedby={errors.token ? `${tokenErrorId} ${tokenHintId}` : tokenHintId}
          />
          <p id={tokenHintId} className="settings-hint">
            {tokenMoved ? t('connection.tokenMoved') : t('connection.tokenHint')}
          </p>
          {errors.token && (
            <p id={tokenErrorId} className="settings-field-error">
              {errors.token}
            </p>
          )}
        </div>

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
