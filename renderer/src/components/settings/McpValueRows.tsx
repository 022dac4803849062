import { useId } from 'react';
import { useT } from '../../i18n/i18n';
import { newRow, type ValueKind, type ValueRow } from '../mcp/mcp-form';
import '../../i18n/messages/mcp';

const KINDS: ValueKind[] = ['text', 'env', 'secret'];

interface ValueLike {
  kind: ValueKind;
  value: string;
  hasValue: boolean;
  remove: boolean;
}

/**
 * The value part of an env variable, a header or the bearer token: a literal, an environment variable's
 * name, or a secret. A secret's field is a write-only password input: empty keeps what is saved, the
 * badge says whether one is, and removing it is an explicit button.
 */
export function McpValueEditor<V extends ValueLike>(props: {
  field: V;
  label: string;
  onChange(next: V): void;
  disabled: boolean;
}) {
  const t = useT();
  const id = useId();
  const { field, onChange, disabled } = props;
  if (field.kind === 'secret') {
    return (
      <div className="mcp-secret">
        <input
          id={id}
          type="password"
          className="key-input"
          aria-label={props.label}
          value={field.value}
          disabled={disabled || field.remove}
          autoComplete="off"
          spellCheck="false"
          autoCapitalize="off"
          placeholder={field.hasValue ? t('mcp.value.secretReplace') : t('mcp.value.secretNew')}
          onChange={(event) => onChange({ ...field, value: event.target.value, remove: false })}
        />
        {field.hasValue && !field.remove && (
          <>
            <span className="settings-badge settings-badge-success">{t('mcp.value.saved')}</span>
            <button
              type="button"
              className="settings-button settings-button-danger-quiet"
              disabled={disabled}
              onClick={() => onChange({ ...field, value: '', remove: true })}
            >
              {t('mcp.value.remove')}
            </button>
          </>
        )}
        {field.hasValue && field.remove && (
          <>
            <span className="settings-badge settings-badge-warning">{t('mcp.value.willRemove')}</span>
            <button
              type="button"
              className="settings-button"
              disabled={disabled}
              onClick={() => onChange({ ...field, remove: false })}
            >
              {t('mcp.value.keep')}
            </button>
          </>
        )}
        {!field.hasValue && (
          <span className="settings-badge settings-badge-warning">{t('mcp.value.notSaved')}</span>
        )}
      </div>
    );
  }
  return (
    <input
      id={id}
      type="text"
      className={field.kind === 'env' ? 'settings-mono' : undefined}
      aria-label={props.label}
      value={field.value}
      disabled={disabled}
      autoComplete="off"
      spellCheck="false"
      placeholder={field.kind === 'env' ? t('mcp.value.envPlaceholder') : ''}
      onChange={(event) => onChange({ ...field, value: event.target.value })}
    />
  );
}

/** The kind of a value, as a select; switching kind starts the value afresh. */
export function McpKindSelect(props: {
  kind: string;
  label: string;
  withNone?: boolean;
  disabled: boolean;
  onChange(kind: ValueKind | 'none'): void;
}) {
  const t = useT();
  const kinds: (ValueKind | 'none')[] = props.withNone ? ['none', ...KINDS] : KINDS;
  return (
    <select
      aria-label={props.label}
      value={props.kind}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.target.value as ValueKind | 'none')}
    >
      {kinds.map((kind) => (
        <option key={kind} value={kind}>
          {t(`mcp.value.kind.${kind}`)}
        </option>
      ))}
    </select>
  );
}

/** Rows of name + kind + value (env variables of a stdio server, headers of an HTTP one). */
export function McpValueRows(props: {
  rows: ValueRow[];
  /** 'env' or 'header': the words of the labels. */
  what: 'env' | 'header';
  disabled: boolean;
  errorId?: string;
  onChange(rows: ValueRow[]): void;
}) {
  const t = useT();
  const { rows, what, disabled, onChange } = props;
  const update = (key: string, next: ValueRow) => onChange(rows.map((r) => (r.key === key ? next : r)));
  return (
    <div className="mcp-rows">
      {rows.map((row, index) => {
        const n = String(index + 1);
        return (
          <div key={row.key} className="mcp-row" data-testid={`mcp-${what}-row`}>
            <input
              type="text"
              className="settings-mono"
              aria-label={t(`mcp.${what}.name`, { n })}
              aria-describedby={props.errorId}
              value={row.name}
              disabled={disabled || row.hasValue}
              title={row.hasValue ? t('mcp.value.renameLocked') : undefined}
              autoComplete="off"
              spellCheck="false"
              placeholder={what === 'env' ? 'API_KEY' : 'X-Api-Key'}
              onChange={(event) => update(row.key, { ...row, name: event.target.value })}
            />
            <McpKindSelect
              kind={row.kind}
              label={t(`mcp.${what}.kind`, { n })}
              disabled={disabled}
              onChange={(kind) =>
                update(row.key, {
                  ...row,
                  kind: kind === 'none' ? 'text' : kind,
                  value: '',
                  remove: false,
                })
              }
            />
            <McpValueEditor
              field={row}
              label={t(`mcp.${what}.value`, { n })}
              disabled={disabled}
              onChange={(next) => update(row.key, next)}
            />
            <button
              type="button"
              className="settings-button settings-button-danger-quiet"
              aria-label={t(`mcp.${what}.delete`, { n })}
              disabled={disabled}
              onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
            >
              ×
            </button>
          </div>
        );
      })}
      <button
        type="button"
        className="settings-button"
        disabled={disabled}
        onClick={() => onChange([...rows, newRow()])}
      >
        {t(`mcp.${what}.add`)}
      </button>
    </div>
  );
}
