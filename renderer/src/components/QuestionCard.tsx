import {
  type FormEvent,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { AnswerQuestionRequest, Question } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { ApprovalInput } from './ApprovalInput';
import { ForkTasks } from './forks/fork-tasks';
import { countInvisibleIn } from './invisible-chars';
import { ApprovalChoices, ElicitationForm } from './lazy-parts';
import { MarkedText } from './MarkedText';
import { CardHeading } from './tool-cards/CardFrame';

type Phase =
  | { state: 'idle' }
  | { state: 'sending'; request: AnswerQuestionRequest }
  | { state: 'sent'; request: AnswerQuestionRequest };

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The per-field problems a refused elicitation answer carries (`details.fields`), if any. */
function fieldsOf(error: unknown): Record<string, string> | null {
  const fields = (error as { details?: { fields?: unknown } } | null)?.details?.fields;
  if (!fields || typeof fields !== 'object') return null;
  return Object.fromEntries(
    Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * A question or an approval the agent waits on, inline in the conversation. Nothing is focused on its
 * own: a card appearing while the user types must not catch an Enter meant for the composer.
 */
export function QuestionCard({
  question,
  onAnswer,
}: {
  question: Question;
  onAnswer: (answer: AnswerQuestionRequest) => Promise<void>;
}) {
  const t = useT();
  const titleId = useId();
  const inputId = useId();
  const warningId = useId();
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const [error, setError] = useState<string | null>(null);
  /** An elicitation's form refused by the server: its problem per field. */
  const [fieldErrors, setFieldErrors] = useState<Record<string, string> | null>(null);
  const [draft, setDraft] = useState('');
  const forkTasks = useContext(ForkTasks);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const send = useCallback(
    (request: AnswerQuestionRequest) => {
      if (phase.state !== 'idle' || question.status !== 'pending') return;
      setPhase({ state: 'sending', request });
      setError(null);
      setFieldErrors(null);
      onAnswer(request).then(
        () => {
          if (alive.current) setPhase({ state: 'sent', request });
        },
        (err: unknown) => {
          if (!alive.current) return;
          setPhase({ state: 'idle' });
          setError(message(err));
          setFieldErrors(fieldsOf(err));
        },
      );
    },
    [phase.state, question.status, onAnswer],
  );

  const submitFree = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const answer = draft.trim();
      if (answer !== '') send({ answer });
    },
    [draft, send],
  );

  const approval = question.kind === 'approval';
  const elicitation = question.kind === 'elicitation' ? question.elicitation : null;
  const answer =
    question.status === 'answered' ? question.answer : phase.state === 'sent' ? phase.request.answer : null;
  // Only this card knows a rule was saved with the answer (the question itself does not say).
  const remembered = phase.state === 'sent' ? (phase.request.remember ?? null) : null;
  const busy = phase.state !== 'idle';
  const classes = [
    'tool-card',
    'question-card',
    approval
      ? 'question-card--approval'
      : elicitation
        ? 'question-card--elicitation'
        : 'question-card--question',
  ];
  classes.push(`question-card--${question.status}`);

  let outcome: string | null = null;
  if (question.status === 'closed') outcome = t('question.closed');
  else if (answer !== null) {
    if (approval && answer === 'allow') outcome = t('question.approval.allowed');
    else if (approval && answer === 'deny') outcome = t('question.approval.denied');
    else if (elicitation && (answer === 'accept' || answer === 'decline' || answer === 'cancel'))
      outcome = t(`question.elicitation.${answer}`);
    else outcome = t('question.answered', { answer });
  }

  const toolName = question.tool?.name ?? null;
  const forkName = question.fork_id === null ? null : forkTasks.get(question.fork_id) || question.fork_id;
  // Counted over the input itself, every field: the views above show each of them as markers.
  const invisible = useMemo(
    () => (approval ? countInvisibleIn(question.tool ? question.tool.input : question.question) : 0),
    [approval, question.tool, question.question],
  );

  return (
    <section className={classes.join(' ')} aria-labelledby={titleId} aria-busy={busy && outcome === null}>
      <CardHeading
        icon={approval ? '!' : '?'}
        title={
          <h3 id={titleId} className="tool-card-name question-card-title">
            {approval
              ? toolName
                ? t('question.approval.title', { tool: toolName })
                : t('question.approval.titleNoTool')
              : elicitation
                ? t('question.elicitation.title', { server: elicitation.server_name })
                : t('question.title')}
          </h3>
        }
        status={
          question.status === 'pending' && outcome === null
            ? { label: t('question.waiting'), tone: 'waiting_approval' }
            : null
        }
      />
      <div className="tool-card-body question-card-body">
        {/* A fork asks here, in its parent's session: say which one, by its task when it is known. */}
        {forkName !== null && (
          <p className="question-card-fork" title={forkName}>
            {t('fork.question.from', { name: forkName })}
          </p>
        )}
        {approval ? (
          <>
            {/* The whole input, never a summary: the user must see everything the tool will run. */}
            {question.tool && <ApprovalInput name={question.tool.name} input={question.tool.input} />}
            {/* The server's sentence repeats the tool and its input; it is only needed when they are missing. */}
            {!question.tool && question.question !== '' && (
              <p className="question-card-text">
                <MarkedText text={question.question} />
              </p>
            )}
            {invisible > 0 && (
              <p id={warningId} className="approval-warning">
                {invisible === 1
                  ? t('question.approval.invisibleOne')
                  : t('question.approval.invisible', { count: invisible })}
              </p>
            )}
            {question.permission && (
              <p className="approval-reason">
                {t('question.approval.reason', { reason: question.permission.reason })}
                {question.permission.rule_id !== null && (
                  <>
                    {' '}
                    <span className="approval-rule">
                      {t('question.approval.askedByRule', { id: question.permission.rule_id })}
                    </span>
                  </>
                )}
              </p>
            )}
          </>
        ) : (
          <p className="question-card-text">
            <MarkedText text={question.question} />
          </p>
        )}

        {outcome !== null ? (
          <p className="question-card-outcome" role="status">
            {outcome}
            {remembered !== null && <> {t(`question.approval.remembered.${remembered}`)}</>}
          </p>
        ) : elicitation ? (
          <Suspense fallback={<div className="question-card-actions question-card-actions--loading" />}>
            <ElicitationForm
              schema={elicitation.requested_schema}
              busy={busy}
              errors={fieldErrors}
              onSend={send}
            />
          </Suspense>
        ) : approval ? (
          // The answers load when an approval first waits; the empty row keeps the card's height meanwhile.
          <Suspense fallback={<div className="question-card-actions question-card-actions--loading" />}>
            <ApprovalChoices
              permission={question.permission}
              busy={busy}
              warningId={invisible > 0 ? warningId : undefined}
              onSend={send}
            />
          </Suspense>
        ) : (
          <>
            {question.options && question.options.length > 0 && (
              <div className="question-card-options">
                {question.options.map((option, i) => (
                  <button
                    // biome-ignore lint/suspicious/noArrayIndexKey: options may repeat and never reorder
                    key={i}
                    type="button"
                    className={i === 0 ? 'conv-button conv-button--primary' : 'conv-button'}
                    disabled={busy}
                    onClick={() => send({ answer: option })}
                  >
                    {option}
                  </button>
                ))}
              </div>
            )}
            <form className="question-card-free" onSubmit={submitFree}>
              <label className="conv-sr-only" htmlFor={inputId}>
                {t('question.freeLabel')}
              </label>
              <input
                id={inputId}
                type="text"
                className="question-card-input"
                value={draft}
                placeholder={t('question.freePlaceholder')}
                disabled={busy}
                onChange={(event) => setDraft(event.target.value)}
              />
              <button
                type="submit"
                className={question.options?.length ? 'conv-button' : 'conv-button conv-button--primary'}
                disabled={busy || draft.trim() === ''}
              >
                {t('question.answer')}
              </button>
            </form>
          </>
        )}

        {phase.state === 'sending' && (
          <p className="question-card-note" role="status">
            {t('question.sending')}
          </p>
        )}
        {error !== null && (
          <p className="question-card-error" role="alert">
            {t('question.error', { message: error })}
          </p>
        )}
      </div>
    </section>
  );
}
