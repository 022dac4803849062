import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { About, Capabilities, ModelConfig } from '../../../sidecar/src/protocol';
import { ApiError, type CairnClient } from '../api/http-client';
import { LOCALES, type Locale } from '../i18n/catalog';
import { type Translate, useI18n, useT } from '../i18n/i18n';
import { CapabilityList, modeLabel } from './ConnectionScreen';

/** Limits the server enforces (CreateModelRequest); checked here first so mistakes are explained in place. */
const LIMITS = { name: 100, model: 200, contextWindow: 1024, maxTokens: 1, thinking: 1024 } as const;
const DEFAULTS = { contextWindow: 200_000, maxTokens: 8192 } as const;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The settings page: models (with write-only API keys), language, and about. */
export function SettingsPage({
  client,
  onClose,
  appVersion,
}: {
  client: CairnClient;
  onClose: () => void;
  appVersion: string;
}) {
  const t = useT();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere on the page closes it; the Close button is the control.
    <div className="settings-page" onKeyDown={onKeyDown}>
      <header className="settings-header">
        <h1 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="settings-title">
          {t('settings.title')}
        </h1>
        <button type="button" className="settings-button" onClick={onClose}>
          {t('settings.close')}
        </button>
      </header>
      <div className="settings-body">
        <ModelsSection client={client} />
        <LanguageSection />
        <AboutSection client={client} appVersion={appVersion} />
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Models

type Editing = { kind: 'new' } | { kind: 'edit'; model: ModelConfig } | null;

function ModelsSection({ client }: { client: CairnClient }) {
  const t = useT();
  const id = useId();
  const [models, setModels] = useState<ModelConfig[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<{ id: string; message: string } | null>(null);
  const [focusKeyOf, setFocusKeyOf] = useState<string | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);

  const reload = useCallback(async () => {
    try {
      setModels(await client.listModels());
      setLoadError(null);
    } catch (error) {
      setLoadError(messageOf(error));
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Puts focus back where it was before a form or confirmation opened (or on a stand-in for it). */
  const restoreFocus = (editedId?: string) => {
    const target = returnFocus.current;
    returnFocus.current = null;
    requestAnimationFrame(() => {
      if (target?.isConnected) return target.focus();
      const edit = editedId
        ? Array.from(document.querySelectorAll<HTMLElement>('[data-edit-model]')).find(
            (el) => el.dataset.editModel === editedId,
          )
        : undefined;
      (edit ?? addRef.current)?.focus();
    });
  };

  const openForm = (next: Exclude<Editing, null>) => {
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirming(null);
    setActionError(null);
    setEditing(next);
  };

  const closeForm = () => {
    setEditing(null);
    restoreFocus(editing?.kind === 'edit' ? editing.model.id : undefined);
  };

  const runAction = async (model: ModelConfig, action: () => Promise<unknown>) => {
    setBusy(model.id);
    setActionError(null);
    try {
      await action();
      await reload();
      return true;
    } catch (error) {
      setActionError({ id: model.id, message: messageOf(error) });
      return false;
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <div className="settings-section-header">
        <h2 id={`${id}-title`}>{t('settings.models.title')}</h2>
        <button
          type="button"
          ref={addRef}
          className="settings-button settings-button-primary"
          onClick={() => openForm({ kind: 'new' })}
          disabled={editing?.kind === 'new'}
        >
          {t('settings.models.add')}
        </button>
      </div>
      <p className="settings-description">{t('settings.models.description')}</p>

      {editing?.kind === 'new' && (
        <ModelForm
          client={client}
          initial={null}
          onCancel={closeForm}
          onSaved={async (saved) => {
            setEditing(null);
            await reload();
            setFocusKeyOf(saved.id);
          }}
        />
      )}

      {loadError && (
        <div className="settings-error" role="alert">
          <p>{t('settings.models.loadError', { message: loadError })}</p>
          <button type="button" className="settings-button" onClick={() => void reload()}>
            {t('settings.models.retry')}
          </button>
        </div>
      )}
      {models === null && !loadError && <p className="settings-muted">{t('settings.models.loading')}</p>}
      {models?.length === 0 && editing?.kind !== 'new' && (
        <p className="settings-empty">{t('settings.models.empty')}</p>
      )}

      {models && models.length > 0 && (
        <ul className="model-list">
          {models.map((model) =>
            editing?.kind === 'edit' && editing.model.id === model.id ? (
              <li key={model.id} className="model-item model-item-editing">
                <ModelForm
                  client={client}
                  initial={model}
                  onCancel={closeForm}
                  onSaved={async () => {
                    setEditing(null);
                    await reload();
                    restoreFocus(model.id);
                  }}
                />
              </li>
            ) : (
              <ModelRow
                key={model.id}
                model={model}
                client={client}
                busy={busy === model.id}
                confirming={confirming === model.id}
                error={actionError?.id === model.id ? actionError.message : null}
                focusKey={focusKeyOf === model.id}
                onKeyFocused={() => setFocusKeyOf(null)}
                onActivate={() => void runAction(model, () => client.activateModel(model.id))}
                onEdit={() => openForm({ kind: 'edit', model })}
                onAskDelete={() => {
                  returnFocus.current =
                    document.activeElement instanceof HTMLElement ? document.activeElement : null;
                  setActionError(null);
                  setConfirming(model.id);
                }}
                onCancelDelete={() => {
                  setConfirming(null);
                  restoreFocus();
                }}
                onConfirmDelete={async () => {
                  const ok = await runAction(model, () => client.deleteModel(model.id));
                  setConfirming(null);
                  if (ok) {
                    returnFocus.current = null;
                    restoreFocus();
                  }
                }}
                onKeySaved={() => void reload()}
              />
            ),
          )}
        </ul>
      )}
    </section>
  );
}

function ModelRow(props: {
  model: ModelConfig;
  client: CairnClient;
  busy: boolean;
  confirming: boolean;
  error: string | null;
  focusKey: boolean;
  onKeyFocused(): void;
  onActivate(): void;
  onEdit(): void;
  onAskDelete(): void;
  onCancelDelete(): void;
  onConfirmDelete(): void;
  onKeySaved(): void;
}) {
  const { model } = props;
  const t = useT();
  const { formatNumber } = useI18n();
  const id = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (props.confirming) cancelRef.current?.focus();
  }, [props.confirming]);

  const tokens = (n: number) => t('settings.models.tokens', { count: formatNumber(n) });

  return (
    <li
      className={model.active ? 'model-item model-item-active' : 'model-item'}
      aria-labelledby={`${id}-name`}
    >
      <div className="model-item-header">
        <h3 id={`${id}-name`} className="model-name">
          {model.name}
        </h3>
        {model.active && (
          <span className="settings-badge settings-badge-accent">{t('settings.models.active')}</span>
        )}
      </div>
      <dl className="model-details">
        <div>
          <dt>{t('settings.models.model')}</dt>
          <dd className="settings-mono">{model.model}</dd>
        </div>
        <div>
          <dt>{t('settings.models.endpoint')}</dt>
          <dd className={model.base_url ? 'settings-mono' : undefined}>
            {model.base_url ?? t('settings.models.defaultEndpoint')}
          </dd>
        </div>
        <div>
          <dt>{t('settings.models.contextWindow')}</dt>
          <dd>{tokens(model.context_window)}</dd>
        </div>
        <div>
          <dt>{t('settings.models.maxTokens')}</dt>
          <dd>{tokens(model.max_tokens)}</dd>
        </div>
        <div>
          <dt>{t('settings.models.thinking')}</dt>
          <dd>
            {model.thinking_budget === null
              ? t('settings.models.thinkingOff')
              : tokens(model.thinking_budget)}
          </dd>
        </div>
      </dl>

      <KeyForm
        model={model}
        client={props.client}
        focus={props.focusKey}
        onFocused={props.onKeyFocused}
        onSaved={props.onKeySaved}
      />

      {props.confirming ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape cancels the confirmation; the buttons are the controls.
        <div
          className="settings-confirm"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            props.onCancelDelete();
          }}
        >
          <p id={`${id}-confirm`}>{t('settings.models.confirmDelete', { name: model.name })}</p>
          <div className="settings-actions">
            <button
              type="button"
              ref={cancelRef}
              className="settings-button"
              onClick={props.onCancelDelete}
              disabled={props.busy}
              aria-describedby={`${id}-confirm`}
            >
              {t('settings.models.cancel')}
            </button>
            <button
              type="button"
              className="settings-button settings-button-danger"
              onClick={props.onConfirmDelete}
              disabled={props.busy}
              aria-describedby={`${id}-confirm`}
            >
              {props.busy ? t('settings.models.working') : t('settings.models.confirmDeleteAction')}
            </button>
          </div>
        </div>
      ) : (
        <div className="settings-actions">
          {!model.active && (
            <button
              type="button"
              className="settings-button"
              onClick={props.onActivate}
              disabled={props.busy}
              aria-label={t('settings.models.activateLabel', { name: model.name })}
            >
              {props.busy ? t('settings.models.working') : t('settings.models.activate')}
            </button>
          )}
          <button
            type="button"
            className="settings-button"
            onClick={props.onEdit}
            disabled={props.busy}
            data-edit-model={model.id}
            aria-label={t('settings.models.editLabel', { name: model.name })}
          >
            {t('settings.models.edit')}
          </button>
          <button
            type="button"
            className="settings-button settings-button-danger-quiet"
            onClick={props.onAskDelete}
            disabled={props.busy}
            aria-label={t('settings.models.deleteLabel', { name: model.name })}
          >
            {t('settings.models.delete')}
          </button>
        </div>
      )}
      {props.error && (
        <p className="settings-error" role="alert">
          {t('settings.models.actionError', { message: props.error })}
        </p>
      )}
    </li>
  );
}

type KeyStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'empty' }
  | { kind: 'error'; message: string };

/**
 * The write-only API key field. The input is uncontrolled (React would otherwise mirror the value into a
 * DOM attribute); the key is read from it only while submitting, the field is cleared at once, and the
 * key is never kept in state, rendered, or logged.
 */
function KeyForm(props: {
  model: ModelConfig;
  client: CairnClient;
  focus: boolean;
  onFocused(): void;
  onSaved(): void;
}) {
  const { model, focus, onFocused } = props;
  const t = useT();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<KeyStatus>({ kind: 'idle' });

  useEffect(() => {
    if (!focus) return;
    inputRef.current?.focus();
    onFocused();
  }, [focus, onFocused]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = inputRef.current;
    if (!input) return;
    const key = input.value.trim();
    input.value = '';
    if (!key) {
      setStatus({ kind: 'empty' });
      input.focus();
      return;
    }
    setStatus({ kind: 'saving' });
    try {
      await props.client.setModelKey(model.id, key);
      setStatus({ kind: 'saved' });
      props.onSaved();
    } catch (error) {
      // The server scrubs secrets from its messages; scrub again so a key can never reach the screen.
      const message = messageOf(error).split(key).join('••••');
      setStatus({ kind: 'error', message });
    }
  };

  const inputId = `${id}-key`;
  const statusId = `${id}-status`;
  const hintId = `${id}-hint`;
  const feedbackId = `${id}-feedback`;
  const feedback =
    status.kind === 'saved'
      ? t('settings.key.saved')
      : status.kind === 'empty'
        ? t('settings.key.empty')
        : status.kind === 'error'
          ? t('settings.key.error', { message: status.message })
          : null;
  const isError = status.kind === 'empty' || status.kind === 'error';

  return (
    <form className="key-form" onSubmit={submit} noValidate>
      <label htmlFor={inputId} className="key-label">
        {t('settings.key.label')}
      </label>
      <div className="key-row">
        <input
          id={inputId}
          ref={inputRef}
          type="password"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          className="key-input"
          aria-label={t('settings.key.labelFor', { name: model.name })}
          placeholder={
            model.has_key ? t('settings.key.placeholderReplace') : t('settings.key.placeholderNew')
          }
          aria-describedby={`${statusId} ${hintId}${feedback ? ` ${feedbackId}` : ''}`}
          aria-invalid={isError ? true : undefined}
          onChange={() => {
            if (status.kind !== 'idle' && status.kind !== 'saving') setStatus({ kind: 'idle' });
          }}
        />
        <button
          type="submit"
          className="settings-button"
          disabled={status.kind === 'saving'}
          aria-label={t('settings.key.saveLabel', { name: model.name })}
        >
          {status.kind === 'saving' ? t('settings.key.saving') : t('settings.key.save')}
        </button>
        <span
          id={statusId}
          className={
            model.has_key ? 'settings-badge settings-badge-success' : 'settings-badge settings-badge-warning'
          }
        >
          {model.has_key ? t('settings.key.set') : t('settings.key.notSet')}
        </span>
      </div>
      <p id={hintId} className="settings-hint">
        {t('settings.key.hint')}
      </p>
      {feedback && (
        <p
          id={feedbackId}
          className={isError ? 'settings-field-error' : 'settings-success'}
          role={isError ? 'alert' : undefined}
        >
          {feedback}
        </p>
      )}
    </form>
  );
}

interface FormValues {
  name: string;
  model: string;
  baseUrl: string;
  contextWindow: string;
  maxTokens: string;
  thinking: string;
}
type FieldErrors = Partial<Record<keyof FormValues, string>>;
interface ModelInput {
  name: string;
  model: string;
  base_url: string | null;
  context_window: number;
  max_tokens: number;
  thinking_budget: number | null;
}

/** Accepts digits with the usual group separators ("200,000", "200 000"); null when not a whole number. */
function parseCount(raw: string): number | null {
  const cleaned = raw.replace(/[\s,_，]/g, '');
  if (!/^\d+$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return Number.isSafeInteger(n) ? n : null;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Checks the form like the server would, with messages that say what to do. */
function validateModelForm(
  values: FormValues,
  t: Translate,
  formatNumber: (n: number) => string,
): { input: ModelInput; errors: null } | { input: null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = values.name.trim();
  const model = values.model.trim();
  const baseUrl = values.baseUrl.trim();
  if (!name) errors.name = t('settings.validation.nameRequired');
  else if (name.length > LIMITS.name)
    errors.name = t('settings.validation.nameTooLong', { max: LIMITS.name });
  if (!model) errors.model = t('settings.validation.modelRequired');
  else if (model.length > LIMITS.model)
    errors.model = t('settings.validation.modelTooLong', { max: LIMITS.model });
  if (baseUrl && !isHttpUrl(baseUrl)) errors.baseUrl = t('settings.validation.baseUrl');

  const contextWindow = parseCount(values.contextWindow);
  if (contextWindow === null) errors.contextWindow = t('settings.validation.integer');
  else if (contextWindow < LIMITS.contextWindow)
    errors.contextWindow = t('settings.validation.contextMin', { min: formatNumber(LIMITS.contextWindow) });

  const maxTokens = parseCount(values.maxTokens);
  if (maxTokens === null) errors.maxTokens = t('settings.validation.integer');
  else if (maxTokens < LIMITS.maxTokens)
    errors.maxTokens = t('settings.validation.maxTokensMin', { min: formatNumber(LIMITS.maxTokens) });
  else if (contextWindow !== null && maxTokens > contextWindow)
    errors.maxTokens = t('settings.validation.maxTokensOverContext', {
      contextWindow: formatNumber(contextWindow),
    });

  let thinking: number | null = null;
  if (values.thinking.trim()) {
    thinking = parseCount(values.thinking);
    if (thinking === null) errors.thinking = t('settings.validation.integer');
    else if (thinking < LIMITS.thinking)
      errors.thinking = t('settings.validation.thinkingMin', { min: formatNumber(LIMITS.thinking) });
    else if (maxTokens !== null && thinking >= maxTokens)
      errors.thinking = t('settings.validation.thinkingOverMax', { maxTokens: formatNumber(maxTokens) });
  }

  if (Object.keys(errors).length > 0 || contextWindow === null || maxTokens === null) {
    return { input: null, errors };
  }
  return {
    input: {
      name,
      model,
      base_url: baseUrl || null,
      context_window: contextWindow,
      max_tokens: maxTokens,
      thinking_budget: thinking,
    },
    errors: null,
  };
}

const FIELD_ORDER: (keyof FormValues)[] = [
  'name',
  'model',
  'baseUrl',
  'contextWindow',
  'maxTokens',
  'thinking',
];

function ModelForm(props: {
  client: CairnClient;
  initial: ModelConfig | null;
  onCancel(): void;
  onSaved(model: ModelConfig): void | Promise<void>;
}) {
  const { initial, client } = props;
  const t = useT();
  const { formatNumber } = useI18n();
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => ({
    name: initial?.name ?? '',
    model: initial?.model ?? '',
    baseUrl: initial?.base_url ?? '',
    contextWindow: String(initial?.context_window ?? DEFAULTS.contextWindow),
    maxTokens: String(initial?.max_tokens ?? DEFAULTS.maxTokens),
    thinking: initial?.thinking_budget == null ? '' : String(initial.thinking_budget),
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const fieldId = (field: keyof FormValues) => `${id}-${field}`;
  const focusField = (field: keyof FormValues) => document.getElementById(fieldId(field))?.focus();

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the first field once, when the form opens.
  useEffect(() => focusField('name'), []);

  const set = (field: keyof FormValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateModelForm(values, t, formatNumber);
    if (checked.errors) {
      setErrors(checked.errors);
      const first = FIELD_ORDER.find((f) => checked.errors[f]);
      if (first) focusField(first);
      return;
    }
    setErrors({});
    setServerError(null);
    setSaving(true);
    try {
      const saved = initial
        ? await client.updateModel(initial.id, checked.input)
        : await client.createModel(checked.input);
      setSaving(false);
      await props.onSaved(saved);
    } catch (error) {
      setSaving(false);
      setServerError(error instanceof ApiError ? error.message : messageOf(error));
    }
  };

  const field = (
    name: keyof FormValues,
    label: string,
    options: { hint?: string; numeric?: boolean; type?: 'text' | 'url'; mono?: boolean } = {},
  ) => {
    const hintId = `${fieldId(name)}-hint`;
    const errorId = `${fieldId(name)}-error`;
    const described = [errors[name] ? errorId : null, options.hint ? hintId : null].filter(Boolean).join(' ');
    return (
      <div className="settings-field">
        <label htmlFor={fieldId(name)}>{label}</label>
        <input
          id={fieldId(name)}
          type={options.type ?? 'text'}
          inputMode={options.numeric ? 'numeric' : options.type === 'url' ? 'url' : undefined}
          className={options.mono ? 'settings-mono' : undefined}
          autoComplete="off"
          spellCheck={false}
          value={values[name]}
          onChange={(e) => set(name, e.target.value)}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={described || undefined}
        />
        {options.hint && (
          <p id={hintId} className="settings-hint">
            {options.hint}
          </p>
        )}
        {errors[name] && (
          <p id={errorId} className="settings-field-error">
            {errors[name]}
          </p>
        )}
      </div>
    );
  };

  const titleId = `${id}-title`;
  const hasErrors = Object.values(errors).some(Boolean);
  return (
    <form
      className="model-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={titleId}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h3 id={titleId}>
        {initial ? t('settings.form.editTitle', { name: initial.name }) : t('settings.form.addTitle')}
      </h3>
      <div className="model-form-grid">
        {field('name', t('settings.form.name'), { hint: t('settings.form.nameHint') })}
        {field('model', t('settings.form.model'), { hint: t('settings.form.modelHint'), mono: true })}
        {field('baseUrl', t('settings.form.baseUrl'), {
          hint: t('settings.form.baseUrlHint'),
          type: 'url',
          mono: true,
        })}
        {field('contextWindow', t('settings.form.contextWindow'), { numeric: true })}
        {field('maxTokens', t('settings.form.maxTokens'), { numeric: true })}
        {field('thinking', t('settings.form.thinking'), {
          hint: t('settings.form.thinkingHint'),
          numeric: true,
        })}
      </div>
      {hasErrors && (
        <p className="settings-field-error" role="alert">
          {t('settings.form.invalid')}
        </p>
      )}
      {serverError && (
        <p className="settings-error" role="alert">
          {t('settings.form.serverError', { message: serverError })}
        </p>
      )}
      <div className="settings-actions">
        <button type="submit" className="settings-button settings-button-primary" disabled={saving}>
          {saving ? t('settings.form.saving') : initial ? t('settings.form.save') : t('settings.form.create')}
        </button>
        <button type="button" className="settings-button" onClick={props.onCancel} disabled={saving}>
          {t('settings.form.cancel')}
        </button>
      </div>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------------
// Language

function LanguageSection() {
  const { t, locale, setLocale } = useI18n();
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('settings.language.title')}</h2>
      <div className="settings-field">
        <label htmlFor={`${id}-select`}>{t('settings.language.label')}</label>
        <select
          id={`${id}-select`}
          value={locale}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            const next = e.target.value;
            if ((LOCALES as readonly string[]).includes(next)) setLocale(next as Locale);
          }}
        >
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(`settings.language.${l}`)}
            </option>
          ))}
        </select>
        <p id={`${id}-hint`} className="settings-hint">
          {t('settings.language.hint')}
        </p>
      </div>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------
// About

type Loaded<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string };

function AboutSection({ client, appVersion }: { client: CairnClient; appVersion: string }) {
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
