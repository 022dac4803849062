import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/i18n';
import type { CellInputRequest } from '../../state/kernel-view';
import '../../i18n/messages/kernels';

/** The answer to a waiting `input()` (a password field for `getpass`). */
export function KernelInputBox(props: { request: CellInputRequest; onSend(value: string): Promise<void> }) {
  const t = useT();
  const [value, setValue] = useState('');
  const [sending, setSending] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new request takes the focus and a fresh field
  useEffect(() => {
    setValue('');
    field.current?.focus();
  }, [props.request.requestId]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    try {
      await props.onSend(value);
    } finally {
      setSending(false);
    }
  };
  return (
    <form className="kernel-input" onSubmit={(e) => void submit(e)}>
      <label>
        <span className="kernel-input-prompt">{props.request.prompt || t('kernel.input.label')}</span>
        <input
          ref={field}
          type={props.request.password ? 'password' : 'text'}
          aria-label={t('kernel.input.label')}
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="submit" disabled={sending}>
        {t('kernel.input.send')}
      </button>
    </form>
  );
}

/** Where the user writes a cell: Ctrl/Cmd+Enter (or Run) sends it to the kernel. */
export function KernelEditor(props: { kernel: string; onRun(code: string): Promise<void> }) {
  const t = useT();
  const [code, setCode] = useState('');
  const [running, setRunning] = useState(false);
  const run = async () => {
    if (!code.trim() || running) return;
    setRunning(true);
    try {
      await props.onRun(code);
      setCode('');
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className="kernel-editor">
      <textarea
        aria-label={t('kernel.editor.label', { name: props.kernel })}
        placeholder={t('kernel.editor.placeholder')}
        spellCheck="false"
        rows={4}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void run();
          }
        }}
      />
      <button
        type="button"
        className="primary-button"
        onClick={() => void run()}
        disabled={running || !code.trim()}
      >
        {t('kernel.editor.run')}
      </button>
    </div>
  );
}
