import { CairnError, notFound } from '../errors';
import type { Question } from '../protocol';
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
  private readonly waiters = new Map<string, (answer: string) => void>();
  /** Questions of calls that may outlive their turn (a script's): closed by their call, not the turn. */
  private readonly detached = new Set<string>();

  constructor(private readonly store: Store) {}

  ask(input: AskInput, signal: AbortSignal, options: { detached?: boolean } = {}): Promise<string> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const asked = this.askedWhere(input);
    const question = this.store.questions.create(asked);
    if (options.detached) this.detached.add(question.id);
    // Listen for the answer and the cancel before announcing the question: a listener of the
    // announcement may answer or cancel at once.
    const answered = new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.waiters.delete(question.id);
        this.detached.delete(question.id);
        // Nobody waits for the answer any more (the call or its turn was stopped): nothing may offer it.
        const why = signal.reason instanceof Error ? signal.reason.message : 'The call was stopped.';
        this.close(asked.sessionId, question.id, why);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(question.id, (answer) => {
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(question.id);
        this.detached.delete(question.id);
        resolve(answer);
      });
    });
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

  answer(questionId: string, answer: string): Question {
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
    this.store.transaction(() => {
      this.store.questions.answer(questionId, answer);
      this.store.events.append(question.session_id, {
        type: 'question.answered',
        turn_id: question.turn_id,
        question_id: questionId,
        answer,
      });
    });
    this.waiters.get(questionId)?.(answer);
    return this.store.questions.get(questionId)!;
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
