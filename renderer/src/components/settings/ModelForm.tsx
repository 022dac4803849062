import { type FormEvent, Fragment, useEffect, useId, useState } from 'react';
import { ApiError, type CairnClient } from '../../../../sidecar/src/client';
import type { ModelConfig } from '../../../../sidecar/src/protocol';
import { useI18n, useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import {
  type FieldErrors,
  type FormValues,
  PRICE_FIELDS,
  priceText,
  type TextField,
  thresholdPercent,
  validateModelForm,
} from './model-form-validation';
import '../../i18n/messages/model-compaction';
import '../../i18n/messages/settings';

const DEFAULTS = { contextWindow: 200_000, maxTokens: 8192, compactThreshold: 0.8 } as const;

const FIELD_ORDER: (keyof FormValues)[] = [
  'name',
  'model',
  'baseUrl',
  'contextWindow',
  'maxTokens',
  'thinking',
  'compactThreshold',
  ...PRICE_FIELDS.map(([field]) => field),
];

const PRICE_LABELS = {
  priceInput: 'settings.form.priceInput',
  priceOutput: 'settings.form.priceOutput',
  priceCacheRead: 'settings.form.priceCacheRead',
  priceCacheWrite: 'settings.form.priceCacheWrite',
} as const;

/** The add / edit form for one model configuration; validates in place before sending. */
export function ModelForm(props: {
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
    autoCompact: initial ? initial.compact_threshold !== null : true,
    // Turned off, the box keeps the default so turning it back on starts from something sensible.
    compactThreshold: String(thresholdPercent(initial?.compact_threshold ?? DEFAULTS.compactThreshold)),
    priceInput: priceText(initial?.price_input),
    priceOutput: priceText(initial?.price_output),
    priceCacheRead: priceText(initial?.price_cache_read),
    priceCacheWrite: priceText(initial?.price_cache_write),
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const fieldId = (field: keyof FormValues) => `${id}-${field}`;
  const focusField = (field: keyof FormValues) => document.getElementById(fieldId(field))?.focus();

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the first field once, when the form opens.
  useEffect(() => focusField('name'), []);

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };
  const setAutoCompact = (on: boolean) => {
    set('autoCompact', on);
    // A threshold that is not used cannot be wrong.
    setErrors((e) => (e.compactThreshold ? { ...e, compactThreshold: undefined } : e));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateModelForm(values, t, formatNumber, initial);
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
    name: TextField,
    label: string,
    options: {
      hint?: string;
      numeric?: boolean;
      decimal?: boolean;
      disabled?: boolean;
      type?: 'text' | 'url';
      mono?: boolean;
    } = {},
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
          inputMode={
            options.decimal
              ? 'decimal'
              : options.numeric
                ? 'numeric'
                : options.type === 'url'
                  ? 'url'
                  : undefined
          }
          disabled={options.disabled}
          className={options.mono ? 'settings-mono' : undefined}
          autoComplete="off"
          spellCheck="false"
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
        <div className="settings-field">
          <label className="settings-check">
            <input
              type="checkbox"
              checked={values.autoCompact}
              onChange={(e) => setAutoCompact(e.target.checked)}
            />
            {t('settings.compaction.auto')}
          </label>
        </div>
        {field('compactThreshold', t('settings.compaction.threshold'), {
          hint: t('settings.compaction.thresholdHint'),
          decimal: true,
          disabled: !values.autoCompact,
        })}
      </div>
      <fieldset className="model-form-prices">
        <legend>{t('settings.form.prices')}</legend>
        <p className="settings-hint">{t('settings.form.pricesHint')}</p>
        <div className="model-form-grid">
          {PRICE_FIELDS.map(([name]) => (
            <Fragment key={name}>{field(name, t(PRICE_LABELS[name]), { decimal: true })}</Fragment>
          ))}
        </div>
      </fieldset>
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
