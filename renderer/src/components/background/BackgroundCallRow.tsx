import { useEffect, useMemo, useRef, useState } from 'react';
import type { ToolCall } from '../../../../sidecar/src/protocol';
import { useI18n, useT } from '../../i18n/i18n';
import { type BackgroundCall, isActive } from '../../state/background-view';
import { messageOf } from '../../state/session-controller';
import { AnsiText } from '../AnsiText';
import { clipLines } from '../clip-lines';
import { ProgressBadge } from '../tool-cards/ToolProgressView';
import { STATUS_KEYS, toolGlyph } from '../tool-labels';
import { summarizeToolInput } from '../tool-summary';
import { useDurationFormat, useNow } from '../use-elapsed';
import '../../i18n/messages/background';

/** Lines of a call's tail the panel shows; the full output is the card's "Show full result". */
const TAIL_LINES = 20;

type Stopping = { state: 'idle' } | { state: 'stopping' } | { state: 'failed'; message: string };

/**
 * One background task in the side panel: its tool, what it runs, status and duration (live while it
 * runs), the newest lines of its output, and Cancel. An ended one keeps its output one click away.
 */
export function BackgroundCallRow(props: {
  item: BackgroundCall;
  /** A call its script started waits for an approval listed above the calls. */
  awaitingApproval?: boolean;
  onReadTail(callId: string): Promise<void>;
  onCancel(callId: string): Promise<ToolCall>;
}) {
  const { item, onReadTail, onCancel } = props;
  const { call } = item;
  const { t } = useI18n();
  const active = isActive(call);
  const now = useNow(active);
  const formatDuration = useDurationFormat();
  const summary = useMemo(() => summarizeToolInput(call.name, call.input), [call.name, call.input]);
  const [stopping, setStopping] = useState<Stopping>({ state: 'idle' });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const duration = active
    ? formatDuration(now - Date.parse(call.started_at), true)
    : call.duration_ms !== null
      ? formatDuration(call.duration_ms, false)
      : null;

  const cancel = () => {
    setStopping({ state: 'stopping' });
    onCancel(call.id).then(
      () => {
        if (alive.current) setStopping({ state: 'idle' });
      },
      (error: unknown) => {
        if (alive.current) setStopping({ state: 'failed', message: messageOf(error) });
      },
    );
  };

  return (
    <li
      className={`background-call background-call--${call.status}`}
      aria-label={t('background.callLabel', { name: call.name, summary })}
      data-call-id={call.id}
    >
      <div className="background-call-head">
        <span className="tool-card-icon" aria-hidden="true">
          {toolGlyph(call.name)}
        </span>
        <span className="background-call-name">{call.name}</span>
        <span className="background-call-summary mono" title={summary}>
          {summary}
        </span>
      </div>
      <div className="background-call-facts">
        <span className={`tool-status tool-status--${call.status}`} data-testid="background-status">
          {t(STATUS_KEYS[call.status])}
        </span>
        {duration !== null && <span className="tool-card-elapsed">{duration}</span>}
        {active && item.progress && <ProgressBadge progress={item.progress} />}
        {!active && call.exit_code !== null && (
          <span className="muted">{t('background.exitCode', { code: String(call.exit_code) })}</span>
        )}
        {active && (
          <button
            type="button"
            className="small-button background-call-cancel"
            disabled={stopping.state === 'stopping'}
            onClick={cancel}
          >
            {stopping.state === 'stopping' ? t('background.stopping') : t('background.cancel')}
          </button>
        )}
      </div>
      {stopping.state === 'stopping' && (
        <p className="visually-hidden" role="status">
          {t('background.stopping')}
        </p>
      )}
      {stopping.state === 'failed' && (
        <p className="error-text background-call-error" role="alert">
          {t('background.cancelFailed', { message: stopping.message })}
        </p>
      )}
      {props.awaitingApproval && active && (
        <p className="background-call-note background-call-awaiting">{t('background.awaitingApproval')}</p>
      )}
      {call.parent_tool_call_id !== null && (
        <p className="muted background-call-note">{t('tool.fromScript', { id: call.parent_tool_call_id })}</p>
      )}
      {active ? (
        <CallTail item={item} />
      ) : (
        <details
          className="background-call-output"
          onToggle={(e) => {
            if (e.currentTarget.open && item.tail === null) void onReadTail(call.id);
          }}
        >
          <summary>{t('background.output')}</summary>
          <CallTail item={item} />
        </details>
      )}
    </li>
  );
}

/** The newest lines of a call's output, as far as they are known. */
function CallTail({ item }: { item: BackgroundCall }) {
  const t = useT();
  const tail = item.tail;
  const clip = useMemo(() => clipLines(tail ?? '', 'tail', TAIL_LINES), [tail]);
  if (tail === null) return <p className="muted background-call-note">{t('background.outputLoading')}</p>;
  if (tail === '')
    return (
      <p className="muted background-call-note">
        {isActive(item.call) ? t('tool.waitingOutput') : t('tool.noOutput')}
      </p>
    );
  return (
    <>
      {(clip.clipped || item.clipped) && (
        <p className="muted background-call-note">{t('background.tailNote')}</p>
      )}
      <pre className="tool-card-pre background-call-tail" data-testid="background-tail">
        <AnsiText text={clip.text} />
      </pre>
    </>
  );
}
