import { useId, useState } from 'react';
import { useI18n } from '../i18n/i18n';

/** A one-line note in the flow (a continuation after the output limit), expandable to an explanation. */
export function TurnNote({
  note,
  attempt,
  maxAttempts,
}: {
  note: 'max_tokens' | 'truncated_tool_call';
  attempt: number;
  maxAttempts: number;
}) {
  const { t, formatNumber } = useI18n();
  const [expanded, setExpanded] = useState(false);
  const detailId = useId();
  // Notes rebuilt from history do not know their attempt numbers (0 of 0).
  const counted = attempt > 0 && maxAttempts > 0;
  const params = { attempt: formatNumber(attempt), max: formatNumber(maxAttempts) };
  let summary: string;
  let detail: string;
  if (note === 'max_tokens') {
    summary = counted ? t('conversation.note.maxTokens', params) : t('conversation.note.maxTokensPlain');
    detail = counted
      ? t('conversation.note.maxTokensDetail', params)
      : t('conversation.note.maxTokensDetailPlain');
  } else {
    summary = t('conversation.note.truncated');
    detail = t('conversation.note.truncatedDetail');
  }
  return (
    <div className="turn-note">
      <button
        type="button"
        className="turn-note-toggle"
        aria-expanded={expanded}
        aria-controls={expanded ? detailId : undefined}
        onClick={() => setExpanded((value) => !value)}
      >
        <span className="conv-chevron" aria-hidden="true">
          ›
        </span>
        {summary}
      </button>
      {expanded && (
        <p id={detailId} className="turn-note-detail">
          {detail}
        </p>
      )}
    </div>
  );
}
