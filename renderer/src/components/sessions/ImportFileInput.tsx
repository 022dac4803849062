import type { RefObject } from 'react';
import { useT } from '../../i18n/i18n';

/** The hidden file box behind "Import session…": a JSON export, handed over once chosen. */
export function ImportFileInput(props: {
  inputRef: RefObject<HTMLInputElement | null>;
  onImport(file: File): void;
  testId?: string;
}) {
  const t = useT();
  return (
    <input
      ref={props.inputRef}
      type="file"
      accept=".json,application/json"
      className="visually-hidden"
      tabIndex={-1}
      aria-label={t('session.import')}
      data-testid={props.testId}
      onChange={(e) => {
        const file = e.target.files?.[0];
        // Cleared, so choosing the same file again is a change too.
        e.target.value = '';
        if (file) props.onImport(file);
      }}
    />
  );
}
