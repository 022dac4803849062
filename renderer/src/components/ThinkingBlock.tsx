import { useId, useState } from 'react';
import { useT } from '../i18n/i18n';

/** The model's thinking: one quiet line, collapsed by default; the text in a muted style when opened. */
export function ThinkingBlock({ text, streaming }: { text: string; streaming: boolean }) {
  const t = useT();
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  return (
    <div className={streaming ? 'thinking thinking--streaming' : 'thinking'}>
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={expanded}
        aria-controls={expanded ? bodyId : undefined}
        onClick={() => setExpanded((value) => !value)}
      >
        <span className="conv-chevron" aria-hidden="true">
          ›
        </span>
        {streaming ? t('conversation.thinking.streaming') : t('conversation.thinking.done')}
      </button>
      {expanded && (
        <div id={bodyId} className="thinking-text">
          {text}
        </div>
      )}
    </div>
  );
}
