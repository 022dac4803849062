import { useId, useState } from 'react';
import { useT } from '../../i18n/i18n';
import { MarkdownView } from '../MarkdownView';

/** Beyond these a response starts folded to its first lines (the rest one click away). */
const FOLDED_LINES = 4;
const FOLDED_CHARS = 320;

/** A fork's final response as Markdown, folded when long; a failed fork's error as one line. */
export function ForkResponse(props: { text: string; failed: boolean }) {
  const t = useT();
  const id = useId();
  const long = props.text.split('\n').length > FOLDED_LINES || props.text.length > FOLDED_CHARS;
  const [expanded, setExpanded] = useState(false);
  if (props.failed) {
    return (
      <p className="fork-response fork-response--error">
        {t('fork.response.failed', { message: props.text })}
      </p>
    );
  }
  const folded = long && !expanded;
  return (
    <>
      <div id={id} className={folded ? 'fork-response fork-response--folded' : 'fork-response'}>
        <MarkdownView text={props.text} />
      </div>
      {long && (
        <button
          type="button"
          className="link-button fork-response-toggle"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? t('fork.response.less') : t('fork.response.more')}
        </button>
      )}
    </>
  );
}
