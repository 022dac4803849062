import { memo, Suspense } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { AnswerQuestionRequest } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import type { ToolItem } from '../../state/tool-items';
import { QuestionCard } from '../QuestionCard';
import { ToolItemView } from '../ToolItemView';
import { CARD_BODIES } from '../tool-cards/card-bodies';
import { useCallResult } from '../tool-cards/use-call-result';
import { isFinished, STATUS_KEYS } from '../tool-labels';

const CodeBody = CARD_BODIES.code;

/**
 * One code-mode step, open by default (it is what the agent did): its cell as the execute_code card shows
 * one (the Python highlighted; what it printed, its value, images and HTML; its error first with the line
 * pointed at; live output while it runs); the tool calls its code made (and their approvals) follow.
 */
export const CodeStepCard = memo(function CodeStepCard(props: {
  item: ToolItem;
  client: CairnClient;
  onAnswer(questionId: string, answer: AnswerQuestionRequest): Promise<void>;
}) {
  const t = useT();
  const { card, nested } = props.item;
  // Open from the start, so an ended step reads its whole result at once (its preview is cut JSON).
  const { result, retry } = useCallResult(props.client, card.toolCallId, isFinished(card.status));
  return (
    <section
      className={`code-step tool-card tool-card--${card.status}${card.isError ? ' tool-card--error' : ''}`}
      aria-label={t('codeStep.label')}
      data-call-id={card.toolCallId ?? undefined}
    >
      <header className="code-step-header">
        <span className="tool-card-name">{t('codeStep.label')}</span>
        <span className={`tool-status tool-status--${card.status}`}>{t(STATUS_KEYS[card.status])}</span>
      </header>
      <div className="tool-card-body">
        <Suspense
          fallback={
            <p className="tool-card-note" role="status">
              {t('tool.opening')}
            </p>
          }
        >
          <CodeBody card={card} result={result} retry={retry} client={props.client} />
        </Suspense>
      </div>
      {nested.map((child) =>
        child.kind === 'tool' ? (
          <ToolItemView key={child.key} item={child} client={props.client} onAnswer={props.onAnswer} />
        ) : (
          <QuestionCard
            key={child.key}
            question={child.question}
            onAnswer={(answer) => props.onAnswer(child.question.id, answer)}
          />
        ),
      )}
    </section>
  );
});
