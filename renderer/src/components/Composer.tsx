import { memo, useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/i18n';
import { messageOf } from '../state/session-controller';

/**
 * Enter sends, Shift+Enter adds a line; while a turn runs, Send becomes Cancel (Esc). Memoized: what is
 * typed renders only this, and a streamed delta elsewhere does not render it.
 */
export const Composer = memo(function Composer(props: {
  running: boolean;
  onSend(prompt: string): Promise<void>;
  onCancel(): Promise<void>;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !props.running || event.defaultPrevented) return;
      if (document.querySelector('.modal')) return;
      // Esc in another text box (an experience, a kernel cell) is that box's, not "cancel the turn".
      const target = event.target as HTMLElement | null;
      const editable = target?.matches?.('textarea, input, select, [contenteditable="true"]') ?? false;
      if (editable && target !== ref.current) return;
      void props.onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [props.running, props.onCancel]);

  const send = async () => {
    const prompt = text.trim();
    if (!prompt || busy || props.running) return;
    setBusy(true);
    setError(null);
    try {
      await props.onSend(prompt);
      setText('');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
      ref.current?.focus();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <textarea
        ref={ref}
        value={text}
        rows={3}
        aria-label={t('composer.prompt')}
        placeholder={t('composer.placeholder')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      {props.running ? (
        <button type="button" className="danger-button" onClick={() => void props.onCancel()}>
          {t('composer.cancel')}
        </button>
      ) : (
        <button type="submit" className="primary-button" disabled={busy || !text.trim()}>
          {t('composer.send')}
        </button>
      )}
    </form>
  );
});
