import { useT } from '../../i18n/i18n';
import { useCopy } from '../use-copy';

/**
 * A small Copy button for a path or a list of them: says Copied (or Copy failed, when the clipboard is
 * refused) for a moment. `label` names what it copies for screen readers; `text` is what goes on the
 * clipboard.
 */
export function CopyButton({ text, label, caption }: { text: string; label: string; caption?: string }) {
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
