/** The line under a settings field after an action: the server's error (announced) or what was done. */
export function FieldFeedback({ id, text, isError }: { id: string; text: string | null; isError: boolean }) {
  if (!text) return null;
  return (
    <p
      id={id}
      className={isError ? 'settings-field-error' : 'settings-success'}
      role={isError ? 'alert' : undefined}
    >
      {text}
    </p>
  );
}
