import { useId, useState } from 'react';
import { useT } from '../../i18n/i18n';
import type { FormError, McpFormField, OAuthFields } from '../mcp/mcp-form';
import { McpTextField } from './McpTextField';
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
  const errorText = (field: OAuthField): string | null => {
    const e = errors[field];
    return e ? t(e.key, e.params) : null;
  };
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
      <McpTextField
        id={`${id}-client-id`}
        label={t('mcp.form.oauthClientId')}
        value={oauth.clientId}
        disabled={disabled}
        onChange={(value) => set('clientId', value)}
      />
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
        {errors.oauthClientSecret && (
          <p className="settings-field-error" role="alert">
            {errorText('oauthClientSecret')}
          </p>
        )}
      </div>
      <McpTextField
        id={`${id}-scopes`}
        label={t('mcp.form.oauthScopes')}
        value={oauth.scopes}
        disabled={disabled}
        hint={t('mcp.form.oauthScopesHint')}
        error={errorText('oauthScopes')}
        onChange={(value) => set('scopes', value)}
      />
      <McpTextField
        id={`${id}-metadata`}
        type="url"
        label={t('mcp.form.oauthMetadataUrl')}
        value={oauth.metadataUrl}
        disabled={disabled}
        placeholder="https://cairn.example.com/oauth/client.json"
        hint={t('mcp.form.oauthMetadataUrlHint')}
        error={errorText('oauthMetadataUrl')}
        onChange={(value) => set('metadataUrl', value)}
      />
    </details>
  );
}
