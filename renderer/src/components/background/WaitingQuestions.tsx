import { useId } from 'react';
import type { AnswerQuestionRequest, Question } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { QuestionCard } from '../QuestionCard';
import '../../i18n/messages/background';

/**
 * The approvals and questions that wait for the user outside the running turn (a background call's script
 * asks after its turn ended): the conversation's own cards, answered the same way, gone once answered or
 * closed, from here or inline.
 */
export function WaitingQuestions(props: {
  questions: readonly Question[];
  onAnswer(questionId: string, answer: AnswerQuestionRequest): Promise<void>;
}) {
  const t = useT();
  const titleId = useId();
  if (props.questions.length === 0) return null;
  return (
    <section className="background-waiting" aria-labelledby={titleId}>
      <h3 id={titleId} className="background-subtitle">
        {t('background.waiting.title')}
      </h3>
      {props.questions.map((question) => (
        <QuestionCard
          key={question.id}
          question={question}
          onAnswer={(answer) => props.onAnswer(question.id, answer)}
        />
      ))}
    </section>
  );
}
