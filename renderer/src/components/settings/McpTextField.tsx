/**
 * A one-line monospace field of the MCP server form: its label, the input, a hint under it, and its error
 * (an alert the input names, with its hint, as what describes it).
 */
export function McpTextField(props: {
  id: string;
  label: string;
  value: string;
  disabled: boolean;
  onChange(value: string): void;
  type?: 'text' | 'url';
  hint?: string;
  placeholder?: string;
  /** What is wrong with the value, in words; absent when nothing is. */
  error?: string | null;
}) {
  const hintId = props.hint ? `${props.id}-hint` : null;
  const errorId = props.error ? `${props.id}-error` : null;
  return (
    <div className="settings-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        className="settings-mono"
        value={props.value}
        disabled={props.disabled}
        autoComplete="off"
        spellCheck="false"
        placeholder={props.placeholder}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {hintId && (
        <p id={hintId} className="settings-hint">
          {props.hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="settings-field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
