import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { AnsiText, ansiToPlainText } from '../AnsiText';
import { clipLines } from '../clip-lines';
import { headAndTail } from './head-tail';
import '../../i18n/messages/tool-bodies';

/** Above this a whole output is shown without colours: parsing megabytes of ANSI is not worth a frozen UI. */
const FULL_ANSI_MAX_CHARS = 400_000;

function Ansi({ text }: { text: string }) {
  return text.length <= FULL_ANSI_MAX_CHARS ? <AnsiText text={text} /> : ansiToPlainText(text);
}

/**
 * A command's or tool's output with its colours: the last lines while it runs; once ended, the head and
 * the tail of a long output with "Show all" between them.
 */
export function OutputText({ text, live, error }: { text: string; live: boolean; error?: boolean }) {
  const { t, formatNumber } = useI18n();
  const [all, setAll] = useState(false);
  const parts = useMemo(() => (live ? null : headAndTail(text)), [text, live]);
  const liveClip = useMemo(() => (live ? clipLines(text, 'tail') : null), [text, live]);
  const className = error ? 'tool-card-pre tool-card-pre--error' : 'tool-card-pre';
  if (liveClip) {
    return (
      <>
        <pre className={className}>
          <AnsiText text={liveClip.text} />
        </pre>
        {liveClip.clipped && (
          <p className="tool-card-note">
            {t('tool.clippedTail', {
              shown: formatNumber(liveClip.shownLines),
              total: formatNumber(liveClip.totalLines),
            })}
          </p>
        )}
      </>
    );
  }
  if (!parts) return null;
  if (parts.tail === null || all) {
    return (
      <>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
        <pre className={`${className}${all ? ' tool-card-pre--full' : ''}`} tabIndex={0}>
          <Ansi text={all ? text : parts.head} />
        </pre>
        {all && (
          <button type="button" className="conv-button tool-card-more" onClick={() => setAll(false)}>
            {t('tool.showLess')}
          </button>
        )}
      </>
    );
  }
  return (
    <>
      <pre className={className}>
        <AnsiText text={parts.head} />
      </pre>
      <button
        type="button"
        className="conv-button tool-card-more"
        aria-label={t('tool.showAllLabel', { total: formatNumber(parts.totalLines) })}
        onClick={() => setAll(true)}
      >
        {parts.omittedLines > 0
          ? t('tool.showAllLines', { omitted: formatNumber(parts.omittedLines) })
          : t('tool.showAll')}
      </button>
      <pre className={className}>
        <AnsiText text={parts.tail} />
      </pre>
    </>
  );
}
