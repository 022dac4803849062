import type { AgentRuntime } from '../../agent/agent-runtime';
import { notFound } from '../../errors';
import type { AnswerQuestionRequest, Question } from '../../protocol';
import type { Store } from '../../store/store';

/** The questions and approvals a session's agent waits on, and the user's answers to them. */
export class QuestionService {
  constructor(private readonly deps: { store: Store; runtime: AgentRuntime }) {}

  pending(sessionId: string): Question[] {
    if (!this.deps.store.sessions.get(sessionId)) throw notFound('Session', sessionId);
    return this.deps.store.questions.pending(sessionId);
  }

  answer(questionId: string, request: AnswerQuestionRequest): Question {
    return this.deps.runtime.answerQuestion(questionId, request.answer);
  }
}
