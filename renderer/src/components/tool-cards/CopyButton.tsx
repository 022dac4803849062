import { useCallback, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/i18n';

/** How long "Copied" or "Copy failed" shows before the button reads "Copy" again. */
const FEEDBACK_MS = 1500;

/**
 * A small Copy button for a path or a list of them: says Copied (or Copy failed, when the clipboard is
 * refused) for a moment. `label` names what it copies for screen readers; `text` is what goes on the
 * clipboard.
 */
export function CopyButton({ text, label, caption }: { text: string; label: string; caption?: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = useCallback(() => {
    const show = (next: 'copied' | 'failed') => {
      setState(next);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setState('idle'), FEEDBACK_MS);
    };
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) return show('failed');
    clipboard.writeText(text).then(
      () => show('copied'),
      () => show('failed'),
    );
  }, [text]);
  const said =
    state === 'copied'
      ? t('file.copied')
      : state === 'failed'
        ? t('file.copyFailed')
        : (caption ?? t('file.copy'));
  return (
    <button
      type="button"
      className="file-copy"
      data-state={state}
      aria-label={state === 'idle' ? label : said}
      title={label}
      onClick={copy}
    >
      {said}
    </button>
  );
}
