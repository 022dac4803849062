import Anser from 'anser';
import { type CSSProperties, memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CairnClient } from '../api/http-client';
import { type Translate, useI18n } from '../i18n/i18n';
import type { ToolCardState } from '../state/turn-view';
import { prettyJson, summarizeToolInput } from './tool-summary';

/** Lines of output shown inside a card; the rest is one click away ("Show full result"). */
export const CARD_MAX_LINES = 200;
/** Characters shown inside a card, whatever the line count (one huge line must not freeze the UI). */
const CARD_MAX_CHARS = 40_000;
/** Above this a full result is shown without colours: parsing megabytes of ANSI is not worth a frozen UI. */
const FULL_ANSI_MAX_CHARS = 400_000;

const GLYPHS: Record<string, string> = {
  Bash: '$',
  Exec: '▷',
  Read: '¶',
  Write: '✎',
  Edit: '✎',
  Grep: '⌕',
  Glob: '✱',
  AskUserQuestion: '?',
};
const DEFAULT_GLYPH = '⚙';

const STATUS_KEYS: Record<ToolCardState['status'], string> = {
  pending: 'tool.status.pending',
  waiting_approval: 'tool.status.waitingApproval',
  running: 'tool.status.running',
  completed: 'tool.status.completed',
  failed: 'tool.status.failed',
  denied: 'tool.status.denied',
  cancelled: 'tool.status.cancelled',
  interrupted: 'tool.status.interrupted',
};

function isFinished(status: ToolCardState['status']): boolean {
  return status !== 'pending' && status !== 'running' && status !== 'waiting_approval';
}

// ---------------------------------------------------------------------------------------------------------
// ANSI → spans

export interface AnsiSegment {
  text: string;
  className: string | null;
  style: CSSProperties | null;
}

/* biome-ignore-start lint/suspicious/noControlCharactersInRegex: these patterns exist to match control codes */
/** OSC (e.g. hyperlinks, window titles), charset selection and other escapes anser does not remove. */
const OTHER_ESCAPES = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()*+][0-9A-Za-z]|\x1b[=>78cDEHMNOZ]/g;
/** Control characters left over after parsing (a stray ESC, bell, backspace…), except tab and newline. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
/* biome-ignore-end lint/suspicious/noControlCharactersInRegex: these patterns exist to match control codes */

const STANDARD_COLOURS = /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/;
const CUBE = [0, 95, 135, 175, 215, 255];

/** The xterm 256-colour palette entry (16–255) as an rgb() colour. */
function paletteColour(index: number): string {
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return `rgb(${level}, ${level}, ${level})`;
  }
  const n = index - 16;
  return `rgb(${CUBE[Math.floor(n / 36)]}, ${CUBE[Math.floor(n / 6) % 6]}, ${CUBE[n % 6]})`;
}

/** A colour from anser's class output: a theme class for the 16 colours, an inline colour otherwise. */
function colour(
  value: string | null,
  truecolor: string | null,
  layer: 'fg' | 'bg',
  classes: string[],
  style: CSSProperties,
) {
  if (!value) return;
  const property = layer === 'fg' ? 'color' : 'backgroundColor';
  if (STANDARD_COLOURS.test(value)) {
    classes.push(`${value}-${layer}`);
  } else if (value === 'ansi-truecolor' && truecolor) {
    style[property] = `rgb(${truecolor})`;
  } else if (value.startsWith('ansi-palette-')) {
    const index = Number(value.slice('ansi-palette-'.length));
    if (index >= 16 && index <= 255) style[property] = paletteColour(index);
  }
}

/** Terminal line endings: CRLF is a newline, and a lone CR (progress bars) overwrites the line. */
function settleCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const trimmed = line.replace(/\r+$/, '');
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    })
    .join('\n');
}

/** Text with ANSI SGR codes as styled segments; other escape sequences are dropped. Never HTML. */
export function ansiSegments(text: string): AnsiSegment[] {
  const clean = settleCarriageReturns(text).replace(OTHER_ESCAPES, '');
  const segments: AnsiSegment[] = [];
  for (const entry of Anser.ansiToJson(clean, { use_classes: true, remove_empty: true })) {
    const content = entry.content.replace(CONTROL, '');
    if (content === '') continue;
    const classes: string[] = [];
    const style: CSSProperties = {};
    colour(entry.fg, entry.fg_truecolor, 'fg', classes, style);
    colour(entry.bg, entry.bg_truecolor, 'bg', classes, style);
    for (const decoration of entry.decorations ?? []) {
      if (decoration !== 'blink' && decoration !== 'reverse') classes.push(`ansi-${decoration}`);
    }
    const className = classes.length > 0 ? classes.join(' ') : null;
    const inline = Object.keys(style).length > 0 ? style : null;
    const last = segments[segments.length - 1];
    if (last && !className && !inline && !last.className && !last.style) last.text += content;
    else segments.push({ text: content, className, style: inline });
  }
  return segments;
}

/** Keeps the first (or, for live output, the last) lines and characters that a card shows. */
export function clipLines(
  text: string,
  from: 'head' | 'tail',
  maxLines = CARD_MAX_LINES,
  maxChars = CARD_MAX_CHARS,
): { text: string; totalLines: number; shownLines: number; clipped: boolean } {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  let kept =
    lines.length > maxLines ? (from === 'head' ? lines.slice(0, maxLines) : lines.slice(-maxLines)) : lines;
  let joined = kept.join('\n');
  let clipped = kept.length < lines.length;
  if (joined.length > maxChars) {
    joined = from === 'head' ? joined.slice(0, maxChars) : joined.slice(-maxChars);
    kept = joined.split('\n');
    clipped = true;
  }
  return { text: joined, totalLines: lines.length, shownLines: kept.length, clipped };
}

function AnsiText({ text }: { text: string }) {
  const segments = useMemo(() => ansiSegments(text), [text]);
  return (
    <>
      {segments.map((segment, i) =>
        segment.className || segment.style ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are derived from the text and never reorder
          <span key={i} className={segment.className ?? undefined} style={segment.style ?? undefined}>
            {segment.text}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Elapsed time

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function useDurationFormat(): (ms: number, whole: boolean) => string {
  const { locale, t } = useI18n();
  return useMemo(() => {
    const tenths = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    return (ms: number, wholeSeconds: boolean) => {
      const safe = Math.max(0, ms);
      if (safe < 60_000) {
        const seconds = wholeSeconds ? whole.format(Math.floor(safe / 1000)) : tenths.format(safe / 1000);
        return t('tool.elapsed.seconds', { seconds });
      }
      const minutes = Math.floor(safe / 60_000);
      const seconds = Math.floor((safe % 60_000) / 1000);
      return t('tool.elapsed.minutes', { minutes: whole.format(minutes), seconds: whole.format(seconds) });
    };
  }, [locale, t]);
}

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
          Anser.ansiToText(full.result).replace(CONTROL, '')
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
}: {
  card: ToolCardState;
  id: string;
  fullResult: FullResultControl;
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
        </div>
      )}
      {showFull && <FullResultView full={full} t={t} />}
    </div>
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
  if (expanded) classes.push('tool-card--expanded');

  return (
    <div className={classes.join(' ')} data-tool={card.name}>
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
          {GLYPHS[card.name] ?? DEFAULT_GLYPH}
        </span>
        <span className="tool-card-name">{card.name}</span>
        <span className="tool-card-summary" title={summary}>
          {summary}
        </span>
        <span className={`tool-status tool-status--${card.status}`}>{t(STATUS_KEYS[card.status])}</span>
        {elapsed !== null && <span className="tool-card-elapsed">{elapsed}</span>}
      </button>
      {expanded && <ToolCardBody card={card} id={bodyId} fullResult={fullResult} />}
    </div>
  );
});
