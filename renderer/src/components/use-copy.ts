import { useCallback, useEffect, useRef, useState } from 'react';

/** How long "Copied" or "Copy failed" shows before a copy button reads "Copy" again. */
const FEEDBACK_MS = 1500;

export type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Copies `text` to the clipboard on `copy()`, and says how it went for a moment (a clipboard the browser
 * refuses, or none at all, is "failed").
 */
export function useCopy(text: string): { state: CopyState; copy(): void } {
  const [state, setState] = useState<CopyState>('idle');
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
    if (!clipboard) {
      show('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => show('copied'),
      () => show('failed'),
    );
  }, [text]);
  return { state, copy };
}
