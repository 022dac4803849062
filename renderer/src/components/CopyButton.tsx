import { useT } from '../i18n/i18n';
import { useCopy } from './use-copy';

/**
 * A small Copy button (a path, a list of them, a code block): says Copied (or Copy failed, when the
 * clipboard is refused) for a moment. `label` names what it copies for screen readers; `text` is what
 * goes on the clipboard; `className` gives it the look of where it sits.
 */
export function CopyButton({
  text,
  label,
  caption,
  className = 'file-copy',
}: {
  text: string;
  label: string;
  caption?: string;
  className?: string;
}) {
  const t = useT();
  const { state, copy } = useCopy(text);
  const said =
    state === 'copied'
      ? t('file.copied')
      : state === 'failed'
        ? t('file.copyFailed')
        : (caption ?? t('file.copy'));
  return (
    <button
      type="button"
      className={className}
      data-state={state}
      aria-label={state === 'idle' ? label : said}
      title={label}
      onClick={copy}
    >
      {said}
    </button>
  );
}
