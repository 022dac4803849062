import { CairnError, notFound } from '../errors';
import {
  checkElicitationContent,
  ELICITATION_ACTIONS,
  type ElicitationAction,
  type ElicitationContent,
  type Question,
} from '../protocol';
import type { QuestionsRepo } from '../store/questions-repo';
import type { Store } from '../store/store';
import type { UserQuestions } from '../tools/runtime/call-request';

export type AskInput = Parameters<QuestionsRepo['create']>[0];

export const APPROVAL_ANSWERS = ['allow', 'deny'] as const;

/**
 * Pending questions and approvals: a row and a `question.required` event, then a wait that ends
 * when the user answers through the API or the turn is cancelled.
 */
export class QuestionBroker implements UserQuestions {
  private readonly waiters = new Map<string, (answer: string, content: ElicitationContent | null) => void>();
  /** Questions of calls that may outlive their turn (a script's): closed by their call, not the turn. */
  private readonly detached = new Set<string>();

  constructor(private readonly store: Store) {}

  async ask(input: AskInput, signal: AbortSignal, options: { detached?: boolean } = {}): Promise<string> {
    return (await this.wait(input, signal, options)).answer;
  }

  /**
   * An MCP server's form request: the user's action, and for "accept" the form's values (checked against
   * its schema, defaults filled). Rejects when the signal aborts (the question is then closed).
   */
  async elicit(
    input: AskInput,
    signal: AbortSignal,
    options: { detached?: boolean } = {},
  ): Promise<{ action: ElicitationAction; content: ElicitationContent | null }> {
    const { answer, content } = await this.wait({ ...input, kind: 'elicitation' }, signal, options);
    return { action: answer as ElicitationAction, content };
  }

  private wait(
    input: AskInput,
    signal: AbortSignal,
    options: { detached?: boolean },
  ): Promise<{ answer: string; content: ElicitationContent | null }> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const asked = this.askedWhere(input);
    const question = this.store.questions.create(asked);
    if (options.detached) this.detached.add(question.id);
    // Listen for the answer and the cancel before announcing the question: a listener of the
    // announcement may answer or cancel at once.
    const answered = new Promise<{ answer: string; content: ElicitationContent | null }>(
      (resolve, reject) => {
        const onAbort = () => {
          this.waiters.delete(question.id);
          this.detached.delete(question.id);
          // Nobody waits for the answer any more (the call or its turn was stopped): nothing may offer it.
          const why = signal.reason instanceof Error ? signal.reason.message : 'The call was stopped.';
          this.close(asked.sessionId, question.id, why);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiters.set(question.id, (answer, content) => {
          signal.removeEventListener('abort', onAbort);
          this.waiters.delete(question.id);
          this.detached.delete(question.id);
          resolve({ answer, content });
        });
      },
    );
    this.store.events.append(asked.sessionId, { type: 'question.required', turn_id: asked.turnId, question });
    return answered;
  }

  /**
   * A fork's question is asked in its parent's session, under the turn that spawned it: the person answers
   * where they watch (and `cairn run` stops there), and the fork's call waits for that answer.
   */
  private askedWhere(input: AskInput): AskInput {
    const fork = this.store.sessions.forkOrigin(input.sessionId);
    if (!fork) return input;
    return { ...input, sessionId: fork.parentSessionId, turnId: fork.parentTurnId, forkId: input.sessionId };
  }

  /** `content`: an accepted elicitation's form values (checked here; refused for other questions). */
  answer(questionId: string, answer: string, content?: Record<string, unknown>): Question {
    const question = this.store.questions.get(questionId);
    if (!question) throw notFound('Question', questionId);
    if (question.status !== 'pending') {
      throw new CairnError(
        'conflict',
        `Question ${questionId} is already ${question.status}; it takes no answer now.`,
      );
    }
    if (question.kind === 'approval' && !(APPROVAL_ANSWERS as readonly string[]).includes(answer)) {
      throw new CairnError('bad_request', 'An approval is answered "allow" or "deny".');
    }
    const filled = this.checkContent(question, answer, content);
    this.store.transaction(() => {
      this.store.questions.answer(questionId, answer);
      this.store.events.append(question.session_id, {
        type: 'question.answered',
        turn_id: question.turn_id,
        question_id: questionId,
        answer,
      });
    });
    this.waiters.get(questionId)?.(answer, filled);
    return this.store.questions.get(questionId)!;
  }

  /** An elicitation's answer and form, checked: the values to send (defaults filled), or null. */
  private checkContent(
    question: Question,
    answer: string,
    content: Record<string, unknown> | undefined,
  ): ElicitationContent | null {
    if (question.kind !== 'elicitation' || !question.elicitation) {
      if (content !== undefined)
        throw new CairnError('bad_request', "content is for an elicitation's answer.");
      return null;
    }
    if (!(ELICITATION_ACTIONS as readonly string[]).includes(answer)) {
      throw new CairnError('bad_request', 'An elicitation is answered "accept", "decline" or "cancel".');
    }
    if (answer !== 'accept') {
      if (content !== undefined)
        throw new CairnError('bad_request', `content goes with "accept", not "${answer}".`);
      return null;
    }
    const checked = checkElicitationContent(question.elicitation.requested_schema, content ?? {});
    if (checked.ok) return checked.content;
    const list = Object.entries(checked.errors).map(([field, why]) => `${field} ${why}`);
    throw new CairnError(
      'bad_request',
      `The form is not accepted as filled: ${list.join('; ')}. Correct it and answer again.`,
      {
        details: { fields: checked.errors },
      },
    );
  }

  /**
   * Closes a turn's pending questions (cancel, failure, interruption), but not those of calls that run on
   * after it (a background call's script asks for approval): their own call closes them.
   */
  closeForTurn(sessionId: string, turnId: string, reason: string): void {
    for (const id of this.store.questions.closeForTurn(turnId, [...this.detached])) {
      this.waiters.delete(id);
      this.store.events.append(sessionId, {
        type: 'question.closed',
        turn_id: turnId,
        question_id: id,
        reason,
      });
    }
  }

  /** Closes the pending questions of tool calls that ended without an answer (after a crash). */
  closeForToolCalls(toolCallIds: string[], reason: string): void {
    for (const question of this.store.questions.pendingForToolCalls(toolCallIds)) {
      // A fork's question was asked in its parent's session: it is closed there.
      this.close(question.session_id, question.id, reason, question.turn_id);
    }
  }

  private close(sessionId: string, questionId: string, reason: string, turnId?: string): void {
    if (!this.store.questions.close(questionId)) return;
    this.store.events.append(sessionId, {
      type: 'question.closed',
      turn_id: turnId ?? this.store.questions.get(questionId)?.turn_id ?? null,
      question_id: questionId,
      reason,
    });
  }
}
