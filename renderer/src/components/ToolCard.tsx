import { memo, Suspense, useMemo, useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import { useI18n, useT } from '../i18n/i18n';
import type { ToolCardState } from '../state/turn-view';
import { CardFrame } from './tool-cards/CardFrame';
import { callKind, mcpNames } from './tool-cards/call-kind';
import { callTitle, summarizeCall } from './tool-cards/call-summary';
import { CARD_BODIES } from './tool-cards/card-bodies';
import { ShellLine } from './tool-cards/ShellLine';
import { ProgressBadge } from './tool-cards/ToolProgressView';
import { useCallResult } from './tool-cards/use-call-result';
import { isFinished, STATUS_KEYS, toolGlyph } from './tool-labels';
import { useDurationFormat, useNow } from './use-elapsed';

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

/**
 * A tool call in the conversation: one human line collapsed (`Bash  npm test`, `Edit  src/app.ts (+12 −3)`);
 * open, the body made for its kind of tool, with its whole result loaded on demand.
 */
export const ToolCard = memo(function ToolCard({
  card,
  client,
}: {
  card: ToolCardState;
  client: CairnClient;
}) {
  const { t } = useI18n();
  const [expanded, setExpanded] = useState(false);
  const summary = useMemo(
    () => summarizeCall({ name: card.name, input: card.input, meta: card.meta }, t),
    [card.name, card.input, card.meta, t],
  );
  const running = card.status === 'running' && card.startedAt !== null;
  const now = useNow(running);
  const formatDuration = useDurationFormat();
  const finished = isFinished(card.status);
  const { result, retry } = useCallResult(client, card.toolCallId, expanded && finished);

  let elapsed: string | null = null;
  if (running && card.startedAt !== null) elapsed = formatDuration(now - card.startedAt, true);
  else if (finished && card.durationMs !== null) elapsed = formatDuration(card.durationMs, false);

  const classes = [`tool-card--${card.status}`, `tool-card--kind-${callKind(card.name)}`];
  if (card.isError) classes.push('tool-card--error');
  if (card.background) classes.push('tool-card--background');
  const server = mcpNames(card.name)?.server ?? null;
  const Body = CARD_BODIES[callKind(card.name)];

  return (
    <CardFrame
      className={classes.join(' ')}
      data={{ 'data-tool': card.name, 'data-call-id': card.toolCallId ?? undefined }}
      icon={toolGlyph(card.name)}
      title={callTitle(card.name)}
      summary={summary}
      summaryView={callKind(card.name) === 'shell' ? <ShellLine line={summary} /> : undefined}
      badges={
        <>
          {server !== null && <span className="tool-card-badge tool-card-badge--server">{server}</span>}
          {card.background && <span className="tool-card-badge">{t('tool.background')}</span>}
          {!finished && card.progress && <ProgressBadge progress={card.progress} />}
        </>
      }
      status={{ label: t(STATUS_KEYS[card.status]), tone: card.status }}
      elapsed={elapsed}
      expanded={expanded}
      onToggle={() => setExpanded((value) => !value)}
    >
      {(card.background || card.parentToolCallId !== null) && <ToolCardOrigin card={card} />}
      <Suspense
        fallback={
          <p className="tool-card-note" role="status">
            {t('tool.opening')}
          </p>
        }
      >
        <Body card={card} result={result} retry={retry} client={client} />
      </Suspense>
    </CardFrame>
  );
});
