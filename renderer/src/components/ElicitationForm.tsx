import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import {
  type ElicitationField,
  type ElicitationValue,
  elicitationFields,
} from '../../../sidecar/src/protocol/elicitation';
import type { AnswerQuestionRequest } from '../../../sidecar/src/protocol/requests';
import { useT } from '../i18n/i18n';
import '../i18n/messages/mcp';
import { splitInvisible } from './invisible-chars';
import { MarkedText } from './MarkedText';

/** What an input holds: text for text-like inputs, a flag for a checkbox, the chosen values for a multi-select. */
type Draft = Record<string, string | boolean | string[]>;

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 time as a datetime-local input shows it: local time, with its seconds when it has any. */
function toLocalInput(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const seconds = d.getSeconds() !== 0 ? `:${pad(d.getSeconds())}` : '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}${seconds}`;
}

/** Text for places that take no markup (an option, a message): invisible characters written as markers. */
const markedString = (text: string): string =>
  splitInvisible(text)
    .map((piece) => (piece.kind === 'text' ? piece.text : piece.label))
    .join('');

function initialDraft(fields: ElicitationField[]): Draft {
  const draft: Draft = {};
  for (const f of fields) {
    if (f.kind === 'boolean') draft[f.name] = f.default ?? false;
    else if (f.kind === 'multiselect') draft[f.name] = f.default ?? [];
    else if (f.kind === 'string' && f.format === 'date-time')
      draft[f.name] = f.default ? toLocalInput(f.default) : '';
    else draft[f.name] = f.default === null ? '' : String(f.default);
  }
  return draft;
}

/**
 * The form's values as sent: an empty input is left out (the server's default, or "required", applies), as
 * are an optional multi-select with nothing chosen and an optional checkbox the user never touched that has
 * no default (its `false` would be a value the user did not give).
 */
function content(
  fields: ElicitationField[],
  draft: Draft,
  touched: ReadonlySet<string>,
): Record<string, ElicitationValue> {
  const out: Record<string, ElicitationValue> = {};
  for (const f of fields) {
    const v = draft[f.name];
    if (f.kind === 'boolean') {
      if (f.required || f.default !== null || touched.has(f.name)) out[f.name] = v === true;
      continue;
    }
    if (f.kind === 'multiselect') {
      const chosen = Array.isArray(v) ? v : [];
      if (f.required || chosen.length > 0) out[f.name] = chosen;
      continue;
    }
    if (typeof v !== 'string' || v.trim() === '') continue;
    if (f.kind === 'number' || f.kind === 'integer') {
      // Not a number: sent as typed, so the answer names the field.
      out[f.name] = Number.isFinite(Number(v)) ? Number(v) : v;
    } else if (f.kind === 'string' && f.format === 'date-time') {
      const d = new Date(v);
      out[f.name] = Number.isNaN(d.getTime()) ? v : d.toISOString();
    } else out[f.name] = v;
  }
  return out;
}

/**
 * The form an MCP server asks the user to fill (elicitation), built from its schema and prefilled with its
 * defaults: Accept sends the values, Decline and Cancel send none. `errors` are the server's, per field.
 */
export function ElicitationForm(props: {
  schema: Record<string, unknown>;
  busy: boolean;
  errors: Record<string, string> | null;
  onSend(request: AnswerQuestionRequest): void;
}) {
  const t = useT();
  const id = useId();
  const fields = useMemo(() => elicitationFields(props.schema), [props.schema]);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(fields));
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const set = (name: string, value: string | boolean | string[]) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setTouched((t) => (t.has(name) ? t : new Set(t).add(name)));
  };
  const { busy, errors, onSend } = props;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSend({ answer: 'accept', content: content(fields, draft, touched) });
  };

  return (
    <form className="elicitation-form" onSubmit={submit} noValidate>
      {fields.map((f) => {
        const inputId = `${id}-${f.name}`;
        // Own properties only: a field named `constructor` has no inherited "error".
        const error = errors && Object.hasOwn(errors, f.name) ? (errors[f.name] ?? null) : null;
        const hintId = f.description ? `${inputId}-hint` : undefined;
        const errorId = error ? `${inputId}-error` : undefined;
        const described = [hintId, errorId].filter(Boolean).join(' ') || undefined;
        const value = draft[f.name];
        const label = (
          <>
            <MarkedText text={f.label} />
            {f.required && <span className="elicitation-required"> ({t('mcp.elicit.required')})</span>}
          </>
        );
        let control: ReactNode;
        if (f.kind === 'boolean') {
          control = (
            <label className="elicitation-check">
              <input
                id={inputId}
                type="checkbox"
                checked={value === true}
                disabled={busy}
                aria-describedby={described}
                onChange={(e) => set(f.name, e.currentTarget.checked)}
              />{' '}
              {label}
            </label>
          );
        } else if (f.kind === 'multiselect') {
          const chosen = (value as string[]) ?? [];
          control = (
            <fieldset className="elicitation-choices" aria-describedby={described}>
              <legend>{label}</legend>
              {f.options.map((o) => (
                <label key={o.value} className="elicitation-check">
                  <input
                    type="checkbox"
                    value={o.value}
                    checked={chosen.includes(o.value)}
                    disabled={busy}
                    onChange={(e) =>
                      set(
                        f.name,
                        e.currentTarget.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value),
                      )
                    }
                  />{' '}
                  <MarkedText text={o.label} />
                </label>
              ))}
            </fieldset>
          );
        } else {
          const input =
            f.kind === 'select' ? (
              <select
                id={inputId}
                className="question-card-input"
                value={value as string}
                disabled={busy}
                aria-describedby={described}
                aria-invalid={error !== null}
                onChange={(e) => set(f.name, e.currentTarget.value)}
              >
                <option value="">{t('mcp.elicit.choose')}</option>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {markedString(o.label)}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={inputId}
                className="question-card-input"
                type={f.kind === 'string' ? (f.format ? INPUT_TYPE[f.format] : 'text') : 'number'}
                // A date-time keeps its seconds (a default with them is sent back as it was).
                step={
                  f.kind === 'integer' || (f.kind === 'string' && f.format === 'date-time')
                    ? 1
                    : f.kind === 'number'
                      ? 'any'
                      : undefined
                }
                min={f.kind === 'number' || f.kind === 'integer' ? (f.min ?? undefined) : undefined}
                max={f.kind === 'number' || f.kind === 'integer' ? (f.max ?? undefined) : undefined}
                value={value as string}
                disabled={busy}
                aria-describedby={described}
                aria-invalid={error !== null}
                onChange={(e) => set(f.name, e.currentTarget.value)}
              />
            );
          control = (
            <>
              <label htmlFor={inputId}>{label}</label>
              {input}
            </>
          );
        }
        return (
          <div key={f.name} className="elicitation-field">
            {control}
            {f.description && (
              <p id={hintId} className="elicitation-hint">
                <MarkedText text={f.description} />
              </p>
            )}
            {error && (
              <p id={errorId} className="question-card-error">
                {t('mcp.elicit.fieldError', { field: markedString(f.label), message: error })}
              </p>
            )}
          </div>
        );
      })}
      <div className="question-card-actions">
        <button type="submit" className="conv-button conv-button--primary" disabled={busy}>
          {t('mcp.elicit.accept')}
        </button>
        <button
          type="button"
          className="conv-button"
          disabled={busy}
          onClick={() => onSend({ answer: 'decline' })}
        >
          {t('mcp.elicit.decline')}
        </button>
        <button
          type="button"
          className="conv-button"
          disabled={busy}
          onClick={() => onSend({ answer: 'cancel' })}
        >
          {t('mcp.elicit.cancel')}
        </button>
      </div>
    </form>
  );
}
