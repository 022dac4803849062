import { memo } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { AnswerQuestionRequest } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import type { ToolItem } from '../state/tool-items';
import { QuestionCard } from './QuestionCard';
import { ToolCard } from './ToolCard';

/**
 * A tool card with the calls its scripts started nested under it, each a card of its own with its
 * questions and approvals beside it (nested again when their scripts start calls).
 */
export const ToolItemView = memo(function ToolItemView(props: {
  item: ToolItem;
  client: CairnClient;
  onAnswer(questionId: string, answer: AnswerQuestionRequest): Promise<void>;
}) {
  const t = useT();
  const { item, client, onAnswer } = props;
  return (
    <>
      <ToolCard card={item.card} client={client} />
      {item.nested.length > 0 && (
        // biome-ignore lint/a11y/useSemanticElements: a group of cards, not a form's fields (fieldset)
        <div
          className="tool-nested"
          role="group"
          aria-label={t('tool.nested', { name: item.card.name })}
          data-parent-call-id={item.card.toolCallId ?? undefined}
        >
          {item.nested.map((child) =>
            child.kind === 'tool' ? (
              <ToolItemView key={child.key} item={child} client={client} onAnswer={onAnswer} />
            ) : (
              <QuestionCard
                key={child.key}
                question={child.question}
                onAnswer={(answer) => onAnswer(child.question.id, answer)}
              />
            ),
          )}
        </div>
      )}
    </>
  );
});
