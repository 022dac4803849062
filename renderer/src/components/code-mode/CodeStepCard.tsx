import { memo, useMemo } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { AnswerQuestionRequest } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import type { ToolItem } from '../../state/tool-items';
import { AnsiText } from '../AnsiText';
import { CodeView } from '../CodeView';
import { clipLines } from '../clip-lines';
import { QuestionCard } from '../QuestionCard';
import { ToolItemView } from '../ToolItemView';
import { isFinished, STATUS_KEYS } from '../tool-labels';
import { CodeStepImages } from './CodeStepImages';
import { useStepCell } from './step-cell';

function codeOf(input: unknown): string {
  const code = (input as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * One code-mode step, open by default (it is what the agent did): its Python highlighted, then what it
 * printed or its error, and the images its cell showed; the tool calls its code made (and their
 * approvals) follow under it.
 */
export const CodeStepCard = memo(function CodeStepCard(props: {
  item: ToolItem;
  client: CairnClient;
  onAnswer(questionId: string, answer: AnswerQuestionRequest): Promise<void>;
}) {
  const t = useT();
  const { card, nested } = props.item;
  const code = useMemo(() => codeOf(card.input), [card.input]);
  const finished = isFinished(card.status);
  const source = finished ? (card.preview ?? card.output) : card.output;
  const clip = useMemo(() => clipLines(source, finished ? 'head' : 'tail'), [source, finished]);
  // The call's result holds text only: its images are in the kernel events of the cell it ran.
  const cell = useStepCell(card.toolCallId);
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
      <CodeView code={code} language="python" />
      <div className="tool-card-section">
        <h4 className="tool-card-label">{card.isError ? t('codeStep.error') : t('codeStep.output')}</h4>
        {source === '' ? (
          <p className="tool-card-note">{finished ? t('codeStep.noOutput') : t('codeStep.waiting')}</p>
        ) : (
          <pre className={card.isError ? 'tool-card-pre tool-card-pre--error' : 'tool-card-pre'}>
            <AnsiText text={clip.text} />
          </pre>
        )}
      </div>
      <CodeStepImages client={props.client} cell={cell} />
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
