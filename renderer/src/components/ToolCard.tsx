import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import { type Translate, useI18n, useT } from '../i18n/i18n';
import type { ToolCardState } from '../state/turn-view';
import { AnsiText, ansiToPlainText } from './AnsiText';
import { clipLines } from './clip-lines';
import { MarkedText } from './MarkedText';
import { hasMcpResultFile, McpResultDownload } from './mcp/McpResultDownload';
import { isFinished, STATUS_KEYS, toolGlyph } from './tool-labels';
import { prettyJson, summarizeToolInput } from './tool-summary';
import { useDurationFormat, useNow } from './use-elapsed';

/** Characters shown inside a card, whatever the line count (one huge line must not freeze the UI). */
/** Above this a full result is shown without colours: parsing megabytes of ANSI is not worth a frozen UI. */
const FULL_ANSI_MAX_CHARS = 400_000;

// ---------------------------------------------------------------------------------------------------------
// Full result

type FullResult =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; result: string | null }
  | { state: 'error'; message: string };

function errorMessage(error: unknown): string {
  // ApiError carries the server's own sentence; network failures say which server could not be reached.
  if (error instanceof Error) return error.message;
  return String(error);
}

function FullResultView({ full, t }: { full: FullResult; t: Translate }) {
  if (full.state === 'loading') {
    return (
      <p className="tool-card-note" role="status">
        {t('tool.fullLoading')}
      </p>
    );
  }
  if (full.state === 'error') {
    return (
      <p className="tool-card-error" role="alert">
        {t('tool.fullError', { message: full.message })}
      </p>
    );
  }
  if (full.state !== 'loaded') return null;
  if (full.result === null || full.result === '')
    return <p className="tool-card-note">{t('tool.fullEmpty')}</p>;
  return (
    <section className="tool-card-section" aria-label={t('tool.fullResult')}>
      <h4 className="tool-card-label">{t('tool.fullResult')}</h4>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <pre className="tool-card-pre tool-card-pre--full" tabIndex={0}>
        {full.result.length <= FULL_ANSI_MAX_CHARS ? (
          <AnsiText text={full.result} />
        ) : (
          ansiToPlainText(full.result)
        )}
      </pre>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------
// The card

interface FullResultControl {
  full: FullResult;
  shown: boolean;
  toggle(): void;
}

/** The full result, fetched with the token on demand and kept in memory while the card exists. */
function useFullResult(client: CairnClient, toolCallId: string | null): FullResultControl {
  const [full, setFull] = useState<FullResult>({ state: 'idle' });
  const [shown, setShown] = useState(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const load = useCallback(() => {
    if (!toolCallId) return;
    setShown(true);
    setFull({ state: 'loading' });
    client.toolCall(toolCallId).then(
      (call) => {
        if (alive.current) setFull({ state: 'loaded', result: call.result });
      },
      (error: unknown) => {
        if (alive.current) setFull({ state: 'error', message: errorMessage(error) });
      },
    );
  }, [client, toolCallId]);

  const toggle = useCallback(() => {
    if (full.state === 'loading') return;
    if (full.state === 'loaded') setShown((value) => !value);
    else load();
  }, [full.state, load]);

  return { full, shown, toggle };
}

function ToolCardBody({
  card,
  id,
  fullResult,
  client,
}: {
  card: ToolCardState;
  id: string;
  fullResult: FullResultControl;
  client: CairnClient;
}) {
  const { t, formatNumber } = useI18n();
  const { full, shown: showFull, toggle: toggleFull } = fullResult;

  const finished = isFinished(card.status);
  const live = !finished && card.output !== '';
  const source = finished ? (card.preview ?? card.output) : card.output;
  const clip = useMemo(() => clipLines(source, live ? 'tail' : 'head'), [source, live]);
  const args = useMemo(() => prettyJson(card.input), [card.input]);

  const toolCallId = card.toolCallId;

  return (
    <div id={id} className="tool-card-body">
      {(card.background || card.parentToolCallId !== null) && <ToolCardOrigin card={card} />}
      {args !== '' && (
        <section className="tool-card-section">
          <h4 className="tool-card-label">{t('tool.arguments')}</h4>
          <pre className="tool-card-pre">{args}</pre>
        </section>
      )}
      <section className="tool-card-section">
        <h4 className="tool-card-label">
          {finished && card.preview !== null ? t('tool.result') : t('tool.output')}
        </h4>
        {source === '' ? (
          <p className="tool-card-note">{finished ? t('tool.noOutput') : t('tool.waitingOutput')}</p>
        ) : (
          <>
            <pre className={card.isError ? 'tool-card-pre tool-card-pre--error' : 'tool-card-pre'}>
              <AnsiText text={clip.text} />
            </pre>
            {clip.clipped && (
              <p className="tool-card-note">
                {t(live ? 'tool.clippedTail' : 'tool.clippedHead', {
                  shown: formatNumber(clip.shownLines),
                  total: formatNumber(clip.totalLines),
                })}
              </p>
            )}
          </>
        )}
      </section>
      {toolCallId && finished && (
        <div className="tool-card-actions">
          <button
            type="button"
            className="conv-button"
            aria-expanded={showFull && full.state === 'loaded'}
            disabled={full.state === 'loading'}
            onClick={toggleFull}
          >
            {showFull && full.state === 'loaded'
              ? t('tool.hideFull')
              : full.state === 'error'
                ? t('tool.fullRetry')
                : t('tool.showFull')}
          </button>
          {hasMcpResultFile(card.name, source) && (
            <McpResultDownload client={client} toolCallId={toolCallId} />
          )}
        </div>
      )}
      {showFull && <FullResultView full={full} t={t} />}
    </div>
  );
}

/** Where a call comes from and how it runs, in one quiet line: in the background, from a script. */
function ToolCardOrigin({ card }: { card: ToolCardState }) {
  const t = useT();
  const lines: string[] = [];
  if (card.parentToolCallId !== null) lines.push(t('tool.fromScript', { id: card.parentToolCallId }));
  if (card.background)
    lines.push(t(isFinished(card.status) ? 'tool.backgroundEnded' : 'tool.backgroundRunning'));
  return (
    <>
      {lines.map((line) => (
        <p key={line} className="tool-card-note tool-card-origin">
          {line}
        </p>
      ))}
    </>
  );
}

/** A tool call in the conversation: one line collapsed; arguments, output and full result expanded. */
export const ToolCard = memo(function ToolCard({
  card,
  client,
}: {
  card: ToolCardState;
  client: CairnClient;
}) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState(false);
  const bodyId = useId();
  const summary = useMemo(() => summarizeToolInput(card.name, card.input), [card.name, card.input]);
  const running = card.status === 'running' && card.startedAt !== null;
  const now = useNow(running);
  const formatDuration = useDurationFormat();
  const fullResult = useFullResult(client, card.toolCallId);

  let elapsed: string | null = null;
  if (running && card.startedAt !== null) elapsed = formatDuration(now - card.startedAt, true);
  else if (isFinished(card.status) && card.durationMs !== null)
    elapsed = formatDuration(card.durationMs, false);

  const classes = ['tool-card', `tool-card--${card.status}`];
  if (card.isError) classes.push('tool-card--error');
  if (card.background) classes.push('tool-card--background');
  if (expanded) classes.push('tool-card--expanded');

  return (
    <div className={classes.join(' ')} data-tool={card.name} data-call-id={card.toolCallId ?? undefined}>
      <button
        type="button"
        className="tool-card-header"
        aria-expanded={expanded}
        aria-controls={expanded ? bodyId : undefined}
        onClick={() => setExpanded((value) => !value)}
      >
        <span className="tool-card-chevron" aria-hidden="true">
          ›
        </span>
        <span className="tool-card-icon" aria-hidden="true">
          {toolGlyph(card.name)}
        </span>
        <span className="tool-card-name">{card.name}</span>
        <span className="tool-card-summary" title={summary}>
          <MarkedText text={summary} />
        </span>
        {card.background && <span className="tool-card-badge">{t('tool.background')}</span>}
        <span className={`tool-status tool-status--${card.status}`}>{t(STATUS_KEYS[card.status])}</span>
        {elapsed !== null && <span className="tool-card-elapsed">{elapsed}</span>}
      </button>
      {expanded && <ToolCardBody card={card} id={bodyId} fullResult={fullResult} client={client} />}
    </div>
  );
});
