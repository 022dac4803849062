import { type FormEvent, useId, useState } from 'react';
import { ApiError, type CairnClient } from '../../../../sidecar/src/client';
import type { McpServer, McpTransport } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import {
  emptyForm,
  formFromServer,
  type McpFormField,
  type McpFormResult,
  type McpFormState,
  requestFromForm,
  withoutSecrets,
} from '../mcp/mcp-form';
import { McpOAuthFields } from './McpOAuthFields';
import { McpTextField } from './McpTextField';
import { McpKindSelect, McpValueEditor, McpValueRows } from './McpValueRows';
import '../../i18n/messages/mcp';

type Errors = Extract<McpFormResult, { ok: false }>['errors'];

/**
 * Add or edit an MCP server. The config is saved first, then the secret values typed (PUT …/secrets); if
 * the keychain refuses them the server is kept and the form stays open on it with the server's message.
 */
export function McpServerForm(props: {
  client: CairnClient;
  initial: McpServer | null;
  onCancel(): void;
  onSaved(server: McpServer): void;
  /** The server was created or changed even though the form stays open (its secrets failed). */
  onChanged(): void;
}) {
  const t = useT();
  const id = useId();
  const [current, setCurrent] = useState<McpServer | null>(props.initial);
  const [form, setForm] = useState<McpFormState>(() =>
    props.initial ? formFromServer(props.initial) : emptyForm(),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const set = <K extends keyof McpFormState>(key: K, value: McpFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = requestFromForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setServerError(null);
    setSaving(true);
    const { request, secrets } = result.value;
    let saved: McpServer | null = null;
    try {
      saved = current
        ? await props.client.updateMcpServer(current.id, request)
        : await props.client.createMcpServer(request);
      if (Object.keys(secrets).length > 0) saved = await props.client.setMcpSecrets(saved.id, secrets);
      props.onSaved(saved);
    } catch (error) {
      const message = withoutSecrets(messageOf(error), secrets);
      if (saved) {
        // The config is saved; only the secrets failed. Stay on the saved server, typed values cleared.
        setCurrent(saved);
        setForm(formFromServer(saved));
        props.onChanged();
        setServerError(
          error instanceof ApiError && error.code === 'keychain_unavailable'
            ? t('mcp.form.keychain', { message })
            : t('mcp.form.secretsError', { message }),
        );
      } else {
        setServerError(t('mcp.form.error', { message }));
      }
    } finally {
      setSaving(false);
    }
  };

  const errorText = (field: McpFormField): string | null => {
    const e = errors[field];
    return e ? t(e.key, e.params) : null;
  };
  const err = (field: McpFormField) => {
    const text = errorText(field);
    return text ? (
      <p id={`${id}-${field}-error`} className="settings-field-error" role="alert">
        {text}
      </p>
    ) : null;
  };
  const describedBy = (field: McpFormField, hint?: string) =>
    [errors[field] ? `${id}-${field}-error` : null, hint ?? null].filter(Boolean).join(' ') || undefined;

  const stdio = form.transport === 'stdio';
  return (
    <form
      className="model-form mcp-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={current ? t('mcp.form.editTitle', { name: current.name }) : t('mcp.form.newTitle')}
    >
      <h3>{current ? t('mcp.form.editTitle', { name: current.name }) : t('mcp.form.newTitle')}</h3>
      <div className="settings-field">
        <label htmlFor={`${id}-name`}>{t('mcp.form.name')}</label>
        <input
          id={`${id}-name`}
          type="text"
          value={form.name}
          disabled={saving}
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy('name')}
          onChange={(e) => set('name', e.target.value)}
        />
        {err('name')}
      </div>

      <fieldset className="provider-kinds">
        <legend>{t('mcp.form.transport')}</legend>
        {(['stdio', 'streamable_http'] as McpTransport[]).map((option) => (
          <label key={option} className="provider-kind">
            <input
              type="radio"
              name={`${id}-transport`}
              value={option}
              checked={form.transport === option}
              disabled={saving}
              onChange={() => set('transport', option)}
            />
            {t(`mcp.transport.${option}`)}
          </label>
        ))}
      </fieldset>

      {stdio ? (
        <>
          <McpTextField
            id={`${id}-command`}
            label={t('mcp.form.command')}
            value={form.command}
            disabled={saving}
            placeholder="npx -y @modelcontextprotocol/server-everything"
            hint={t('mcp.form.commandHint')}
            error={errorText('command')}
            onChange={(value) => set('command', value)}
          />
          <div className="settings-field">
            <span className="mcp-label">{t('mcp.form.env')}</span>
            <p className="settings-hint">{t('mcp.form.valueHint')}</p>
            <McpValueRows
              rows={form.env}
              what="env"
              disabled={saving}
              errorId={errors.env ? `${id}-env-error` : undefined}
              onChange={(rows) => set('env', rows)}
            />
            {err('env')}
          </div>
        </>
      ) : (
        <>
          <McpTextField
            id={`${id}-url`}
            type="url"
            label={t('mcp.form.url')}
            value={form.url}
            disabled={saving}
            placeholder="https://mcp.example.com/mcp"
            hint={t('mcp.form.urlHint')}
            error={errorText('url')}
            onChange={(value) => set('url', value)}
          />
          <div className="settings-field">
            <span className="mcp-label">{t('mcp.form.headers')}</span>
            <p className="settings-hint">{t('mcp.form.valueHint')}</p>
            <McpValueRows
              rows={form.headers}
              what="header"
              disabled={saving}
              errorId={errors.headers ? `${id}-headers-error` : undefined}
              onChange={(rows) => set('headers', rows)}
            />
            {err('headers')}
          </div>
          <div className="settings-field">
            <span className="mcp-label">{t('mcp.form.bearer')}</span>
            <div className="mcp-row">
              <McpKindSelect
                kind={form.bearer.kind}
                label={t('mcp.form.bearerKind')}
                withNone
                disabled={saving}
                onChange={(kind) => set('bearer', { ...form.bearer, kind, value: '', remove: false })}
              />
              {form.bearer.kind !== 'none' && (
                <McpValueEditor
                  field={{ ...form.bearer, kind: form.bearer.kind }}
                  label={t('mcp.form.bearer')}
                  disabled={saving}
                  onChange={(next) => set('bearer', next)}
                />
              )}
            </div>
            {err('bearer')}
          </div>
          <McpOAuthFields
            oauth={form.oauth}
            errors={errors}
            disabled={saving}
            onChange={(next) => set('oauth', next)}
          />
        </>
      )}

      <details className="mcp-advanced">
        <summary>{t('mcp.form.advanced')}</summary>
        <div className="model-form-grid">
          <div className="settings-field">
            <label htmlFor={`${id}-startup`}>{t('mcp.form.startupTimeout')}</label>
            <input
              id={`${id}-startup`}
              type="number"
              min={1}
              max={600}
              value={form.startupTimeout}
              disabled={saving}
              aria-describedby={describedBy('startupTimeout')}
              onChange={(e) => set('startupTimeout', e.target.value)}
            />
            {err('startupTimeout')}
          </div>
          <div className="settings-field">
            <label htmlFor={`${id}-tool`}>{t('mcp.form.toolTimeout')}</label>
            <input
              id={`${id}-tool`}
              type="number"
              min={1}
              max={3600}
              value={form.toolTimeout}
              disabled={saving}
              aria-describedby={describedBy('toolTimeout')}
              onChange={(e) => set('toolTimeout', e.target.value)}
            />
            {err('toolTimeout')}
          </div>
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-allow`}>{t('mcp.form.allow')}</label>
          <input
            id={`${id}-allow`}
            type="text"
            className="settings-mono"
            value={form.allowNone ? '' : form.allowTools}
            disabled={saving || form.allowNone}
            spellCheck="false"
            placeholder={
              form.allowNone ? t('mcp.form.allowNonePlaceholder') : t('mcp.form.allowAllPlaceholder')
            }
            aria-describedby={`${id}-allow-hint`}
            onChange={(e) => set('allowTools', e.target.value)}
          />
          <label className="mcp-check">
            <input
              type="checkbox"
              checked={form.allowNone}
              disabled={saving}
              onChange={(e) => set('allowNone', e.target.checked)}
            />
            {t('mcp.form.allowNone')}
          </label>
          <p id={`${id}-allow-hint`} className="settings-hint">
            {t('mcp.form.allowHint')}
          </p>
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-deny`}>{t('mcp.form.deny')}</label>
          <input
            id={`${id}-deny`}
            type="text"
            className="settings-mono"
            value={form.denyTools}
            disabled={saving}
            spellCheck="false"
            aria-describedby={`${id}-deny-hint`}
            onChange={(e) => set('denyTools', e.target.value)}
          />
          <p id={`${id}-deny-hint`} className="settings-hint">
            {t('mcp.form.denyHint')}
          </p>
        </div>
        <label className="mcp-check">
          <input
            type="checkbox"
            checked={form.blockOnFailure}
            disabled={saving}
            onChange={(e) => set('blockOnFailure', e.target.checked)}
          />
          {t('mcp.form.block')}
        </label>
      </details>

      {serverError && (
        <p className="settings-field-error" role="alert">
          {serverError}
        </p>
      )}
      <div className="settings-actions">
        <button type="submit" className="settings-button settings-button-primary" disabled={saving}>
          {saving ? t('mcp.form.saving') : t('mcp.form.save')}
        </button>
        <button type="button" className="settings-button" disabled={saving} onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
