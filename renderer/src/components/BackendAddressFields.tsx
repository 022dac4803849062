import { type RefObject, useCallback, useRef, useState } from 'react';

/** A usable http(s) base address without trailing slashes, or null (also for one with credentials in it). */
export function normalizeBackendUrl(raw: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username || parsed.password) return null;
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

type Field = 'url' | 'token';
export type AddressErrors = Partial<Record<Field, string>>;

export interface BackendAddress {
  url: string;
  setUrl(url: string): void;
  urlRef: RefObject<HTMLInputElement | null>;
  /** The token input is uncontrolled, so the token is never mirrored into the DOM or React state. */
  tokenRef: RefObject<HTMLInputElement | null>;
  errors: AddressErrors;
  clearError(field: Field): void;
  /** Reads and checks both fields, shows what is wrong and focuses the first bad one. */
  read(): { url: string; token: string } | null;
}

/** State of a server address + access token pair; `messages` are what a missing or bad field says. */
export function useBackendAddress(initialUrl: string, messages: Record<Field, string>): BackendAddress {
  const [url, setUrl] = useState(initialUrl);
  const [errors, setErrors] = useState<AddressErrors>({});
  const urlRef = useRef<HTMLInputElement>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const clearError = useCallback((field: Field) => setErrors((e) => ({ ...e, [field]: undefined })), []);

  const read = () => {
    const normalized = normalizeBackendUrl(url);
    const token = tokenRef.current?.value.trim() ?? '';
    const next: AddressErrors = {};
    if (!normalized) next.url = messages.url;
    if (!token) next.token = messages.token;
    setErrors(next);
    if (next.url) urlRef.current?.focus();
    else if (next.token) tokenRef.current?.focus();
    return normalized && token ? { url: normalized, token } : null;
  };

  return { url, setUrl, urlRef, tokenRef, errors, clearError, read };
}

export interface BackendAddressFieldsProps {
  /** A useId() value; the inputs, hints and errors are named after it. */
  id: string;
  address: BackendAddress;
  labels: { url: string; token: string; urlHint?: string; tokenHint: string };
  placeholders?: { url?: string; token?: string };
  /** Whether the browser may offer remembered addresses. */
  urlAutoComplete: 'url' | 'off';
  disabled?: boolean;
  /** Instead of taking the typed address as it is (and clearing its error). */
  onUrlChange?(value: string): void;
  /** Besides clearing the token's error. */
  onTokenChange?(): void;
}

/**
 * The server address and access token fields, with their hints and error messages, as the connection
 * screen and Settings → Backend ask for them.
 */
export function BackendAddressFields({
  id,
  address,
  labels,
  placeholders = {},
  urlAutoComplete,
  disabled = false,
  onUrlChange,
  onTokenChange,
}: BackendAddressFieldsProps) {
  const { errors } = address;
  const urlHintId = `${id}-url-hint`;
  const urlErrorId = `${id}-url-error`;
  const tokenHintId = `${id}-token-hint`;
  const tokenErrorId = `${id}-token-error`;
  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;

  return (
    <>
      <div className="settings-field">
        <label htmlFor={`${id}-url`}>{labels.url}</label>
        <input
          id={`${id}-url`}
          ref={address.urlRef}
          type="url"
          inputMode="url"
          autoComplete={urlAutoComplete}
          spellCheck="false"
          placeholder={placeholders.url}
          disabled={disabled}
          value={address.url}
          onChange={(e) => {
            if (onUrlChange) return onUrlChange(e.target.value);
            address.setUrl(e.target.value);
            address.clearError('url');
          }}
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={describedBy(!!errors.url && urlErrorId, !!labels.urlHint && urlHintId)}
        />
        {labels.urlHint && (
          <p id={urlHintId} className="settings-hint">
            {labels.urlHint}
          </p>
        )}
        {errors.url && (
          <p id={urlErrorId} className="settings-field-error">
            {errors.url}
          </p>
        )}
      </div>

      <div className="settings-field">
        <label htmlFor={`${id}-token`}>{labels.token}</label>
        <input
          id={`${id}-token`}
          ref={address.tokenRef}
          type="password"
          autoComplete="off"
          spellCheck="false"
          autoCapitalize="off"
          placeholder={placeholders.token}
          disabled={disabled}
          onChange={() => {
            address.clearError('token');
            onTokenChange?.();
          }}
          aria-invalid={errors.token ? true : undefined}
          aria-describedby={describedBy(!!errors.token && tokenErrorId, tokenHintId)}
        />
        <p id={tokenHintId} className="settings-hint">
          {labels.tokenHint}
        </p>
        {errors.token && (
          <p id={tokenErrorId} className="settings-field-error">
            {errors.token}
          </p>
        )}
      </div>
    </>
  );
}
