import { memo } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { AnswerQuestionRequest } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { codeStepMessageId } from '../state/code-step';
import type { TurnView } from '../state/turn-view';
import { RevertCard } from './changes/RevertCard';
import { TurnChanges } from './changes/TurnChanges';
import { CodeStepCard } from './code-mode/CodeStepCard';
import { stepReasoning } from './code-mode/step-reasoning';
import { CompactionCard } from './context/CompactionCard';
import { ContextEditNote } from './context/ContextEditNote';
import { ForkGroup } from './forks/ForkGroup';
import { MarkdownView } from './MarkdownView';
import { QuestionCard } from './QuestionCard';
import { ThinkingBlock } from './ThinkingBlock';
import { ToolItemView } from './ToolItemView';
import { TurnNote } from './TurnNote';
import { TurnStatusLine } from './TurnStatusLine';
import { TurnUsage } from './TurnUsage';

/** One turn: the user's prompt, then what the agent said and did, then how the turn ended. */
export const TurnBlock = memo(function TurnBlock(props: {
  view: TurnView;
  client: CairnClient;
  onAnswer(questionId: string, answer: AnswerQuestionRequest): Promise<void>;
  onRetry(): void;
  onOpenSettings(): void;
  /** Opens one context version read only (a compaction card's "before" link). */
  onViewVersion?(number: number): void;
  /** Opens another session (a fork's conversation, from its row). */
  onOpenSession?(id: string): void;
  /** "Branch from here": a new session with the history up to and including this turn (absent: not offered). */
  onBranch?(): void;
  /** Offer to undo the turn's file changes (absent in a read-only session); disabled while a turn runs. */
  revert?: { disabled: boolean };
  /** A revert turn: the ordinal of the turn it restored to, when that turn is loaded. */
  revertedOrdinal?: number;
}) {
  const t = useT();
  const { view } = props;
  const streaming = view.turn.status === 'running';
  if (view.turn.kind === 'revert') {
    return (
      <article
        className="turn turn--revert"
        data-turn-ordinal={view.turn.ordinal}
        data-status={view.turn.status}
      >
        <RevertCard
          view={view}
          client={props.client}
          revert={props.revert}
          revertedOrdinal={props.revertedOrdinal}
        />
      </article>
    );
  }
  return (
    <article className="turn" data-turn-ordinal={view.turn.ordinal} data-status={view.turn.status}>
      {view.items.map((item) => {
        switch (item.kind) {
          case 'prompt':
            return (
              <div key={item.key} className="user-message">
                <span className="visually-hidden">{t('transcript.you')}</span>
                <p>{item.text}</p>
              </div>
            );
          case 'text': {
            // A code step's reply shows its reasoning here; its code shows in the step's card below.
            const text = item.reasoning ? stepReasoning(item.text) : item.text;
            if (text === '') return null;
            return <MarkdownView key={item.key} text={text} streaming={item.streaming} />;
          }
          case 'thinking':
            return <ThinkingBlock key={item.key} text={item.text} streaming={item.streaming} />;
          case 'tool':
            if (codeStepMessageId(item.card.toolUseId) !== null) {
              return (
                <CodeStepCard key={item.key} item={item} client={props.client} onAnswer={props.onAnswer} />
              );
            }
            return (
              <ToolItemView key={item.key} item={item} client={props.client} onAnswer={props.onAnswer} />
            );
          case 'question':
            return (
              <QuestionCard
                key={item.key}
                question={item.question}
                onAnswer={(answer) => props.onAnswer(item.question.id, answer)}
              />
            );
          case 'note':
            return (
              <TurnNote
                key={item.key}
                note={item.note}
                attempt={item.attempt}
                maxAttempts={item.maxAttempts}
              />
            );
          case 'compaction':
            return <CompactionCard key={item.key} item={item} onViewVersion={props.onViewVersion} />;
          case 'context-edit':
            return (
              <ContextEditNote key={item.key} version={item.version} onViewVersion={props.onViewVersion} />
            );
          case 'forks':
            return <ForkGroup key={item.key} forks={item.forks} onOpen={props.onOpenSession} />;
          default:
            return null;
        }
      })}
      {streaming && (
        <span className="streaming-indicator" role="status" aria-label={t('transcript.working')} />
      )}
      <TurnStatusLine
        turn={view.turn}
        mcpLogins={view.mcpLogins}
        onRetry={props.onRetry}
        onOpenSettings={props.onOpenSettings}
      />
      <TurnChanges turn={view.turn} client={props.client} revert={props.revert} />
      {!streaming && (
        <footer className="turn-footer">
          <TurnUsage turn={view.turn} />
          {props.onBranch && (
            <button
              type="button"
              className="turn-action"
              title={t('branch.fromHereLabel', { ordinal: view.turn.ordinal })}
              onClick={props.onBranch}
            >
              <span aria-hidden="true">↱ </span>
              {t('branch.fromHere')}
            </button>
          )}
        </footer>
      )}
    </article>
  );
});
