import { useId, useState } from 'react';
import { useT } from '../../i18n/i18n';
import type { FormError, McpFormField, OAuthFields } from '../mcp/mcp-form';
import { McpKindSelect, McpValueEditor } from './McpValueRows';
import '../../i18n/messages/mcp';

type OAuthField = Extract<McpFormField, `oauth${string}`>;

/**
 * The OAuth part of an HTTP server's form: a client registered beforehand (ID and secret), scopes, and a
 * client metadata URL. All optional; closed unless something is set, since most servers need none of it.
 */
export function McpOAuthFields(props: {
  oauth: OAuthFields;
  errors: Partial<Record<McpFormField, FormError>>;
  disabled: boolean;
  onChange(next: OAuthFields): void;
}) {
  const t = useT();
  const id = useId();
  const { oauth, errors, disabled } = props;
  const set = <K extends keyof OAuthFields>(key: K, value: OAuthFields[K]) =>
    props.onChange({ ...oauth, [key]: value });
  const err = (field: OAuthField) => {
    const e = errors[field];
    return e ? (
      <p id={`${id}-${field}-error`} className="settings-field-error" role="alert">
        {t(e.key, e.params)}
      </p>
    ) : null;
  };
  const describedBy = (field: OAuthField, hint: string) =>
    [errors[field] ? `${id}-${field}-error` : null, hint].filter(Boolean).join(' ');
  const anySet =
    oauth.clientId !== '' ||
    oauth.clientSecret.kind !== 'none' ||
    oauth.scopes !== '' ||
    oauth.metadataUrl !== '';
  const anyError = Boolean(errors.oauthClientSecret || errors.oauthScopes || errors.oauthMetadataUrl);
  // Open at first when something is set; then as the user leaves it, except that an error shows itself.
  const [open, setOpen] = useState(anySet);

  return (
    <details
      className="mcp-advanced mcp-oauth"
      open={open || anyError}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>{t('mcp.form.oauth')}</summary>
      <p className="settings-hint">{t('mcp.form.oauthHint')}</p>
      <div className="settings-field">
        <label htmlFor={`${id}-client-id`}>{t('mcp.form.oauthClientId')}</label>
        <input
          id={`${id}-client-id`}
          type="text"
          className="settings-mono"
          value={oauth.clientId}
          disabled={disabled}
          autoComplete="off"
          spellCheck="false"
          onChange={(e) => set('clientId', e.target.value)}
        />
      </div>
      <div className="settings-field">
        <span className="mcp-label">{t('mcp.form.oauthClientSecret')}</span>
        <div className="mcp-row">
          <McpKindSelect
            kind={oauth.clientSecret.kind}
            label={t('mcp.form.oauthClientSecretKind')}
            withNone
            disabled={disabled}
            onChange={(kind) =>
              set('clientSecret', { ...oauth.clientSecret, kind, value: '', remove: false })
            }
          />
          {oauth.clientSecret.kind !== 'none' && (
            <McpValueEditor
              field={{ ...oauth.clientSecret, kind: oauth.clientSecret.kind }}
              label={t('mcp.form.oauthClientSecret')}
              disabled={disabled}
              onChange={(next) => set('clientSecret', next)}
            />
          )}
        </div>
        {oauth.clientSecret.kind === 'text' && (
          <p className="settings-hint" data-testid="mcp-oauth-secret-text">
            {t('mcp.form.oauthSecretText')}
          </p>
        )}
        {err('oauthClientSecret')}
      </div>
      <div className="settings-field">
        <label htmlFor={`${id}-scopes`}>{t('mcp.form.oauthScopes')}</label>
        <input
          id={`${id}-scopes`}
          type="text"
          className="settings-mono"
          value={oauth.scopes}
          disabled={disabled}
          autoComplete="off"
          spellCheck="false"
          aria-invalid={errors.oauthScopes ? true : undefined}
          aria-describedby={describedBy('oauthScopes', `${id}-scopes-hint`)}
          onChange={(e) => set('scopes', e.target.value)}
        />
        <p id={`${id}-scopes-hint`} className="settings-hint">
          {t('mcp.form.oauthScopesHint')}
        </p>
        {err('oauthScopes')}
      </div>
      <div className="settings-field">
        <label htmlFor={`${id}-metadata`}>{t('mcp.form.oauthMetadataUrl')}</label>
        <input
          id={`${id}-metadata`}
          type="url"
          className="settings-mono"
          value={oauth.metadataUrl}
          disabled={disabled}
          autoComplete="off"
          spellCheck="false"
          placeholder="https://cairn.example.com/oauth/client.json"
          aria-invalid={errors.oauthMetadataUrl ? true : undefined}
          aria-describedby={describedBy('oauthMetadataUrl', `${id}-metadata-hint`)}
          onChange={(e) => set('metadataUrl', e.target.value)}
        />
        <p id={`${id}-metadata-hint`} className="settings-hint">
          {t('mcp.form.oauthMetadataUrlHint')}
        </p>
        {err('oauthMetadataUrl')}
      </div>
    </details>
  );
}
