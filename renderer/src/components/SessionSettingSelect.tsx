import { type ReactNode, useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { Session } from '../../../sidecar/src/protocol';

type Field = 'approval' | 'mode';

/**
 * A select in the session header that saves one of the session's settings. While it saves it waits; a
 * refusal is shown beside it (`errorText`), and the select shows the session's value again, not the one
 * the server refused.
 */
export function SessionSettingSelect<F extends Field>(props: {
  client: CairnClient;
  session: Session;
  field: F;
  options: readonly Session[F][];
  label: string;
  optionLabel(option: Session[F]): string;
  optionHint(option: Session[F]): string;
  title: string;
  className: string;
  disabled?: boolean;
  errorText(message: string): string;
  onChanged(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { session, field } = props;
  const value = session[field];
  let errorLine: ReactNode = null;
  if (error !== null)
    errorLine = (
      <span className="mode-select-error" role="alert">
        {props.errorText(error)}
      </span>
    );
  return (
    <label className={props.className}>
      <span aria-hidden="true">{props.label}</span>
      <select
        aria-label={props.label}
        value={value}
        disabled={props.disabled || saving}
        title={props.title}
        onChange={async (e) => {
          const chosen = props.options.find((option) => option === e.target.value);
          if (chosen === undefined) return;
          setError(null);
          setSaving(true);
          try {
            await props.client.updateSession(session.id, { [field]: chosen });
            props.onChanged();
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          } finally {
            setSaving(false);
          }
        }}
      >
        {props.options.map((option) => (
          <option key={option} value={option} title={props.optionHint(option)}>
            {props.optionLabel(option)}
          </option>
        ))}
      </select>
      {errorLine}
    </label>
  );
}
