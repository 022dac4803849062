import type { AgentRuntime } from '../../agent/agent-runtime';
import { badRequest, notFound } from '../../errors';
import type { AnswerQuestionRequest, Question } from '../../protocol';
import type { Store } from '../../store/store';
import type { PermissionRuleService } from '../permissions/permission-rule-service';

/** The questions and approvals a session's agent waits on, and the user's answers to them. */
export class QuestionService {
  constructor(
    private readonly deps: { store: Store; runtime: AgentRuntime; permissions: PermissionRuleService },
  ) {}

  pending(sessionId: string): Question[] {
    if (!this.deps.store.sessions.get(sessionId)) throw notFound('Session', sessionId);
    return this.deps.store.questions.pending(sessionId);
  }

  /**
   * Answers a question. An approval answered with `remember` also saves the rule (allow or deny, as
   * answered) for the session, its project or everywhere; everything is checked before anything is saved,
   * so a bad pattern leaves the question waiting.
   */
  answer(questionId: string, request: AnswerQuestionRequest): Question {
    if (request.remember === undefined) {
      if (request.pattern !== undefined) throw badRequest('pattern is given with remember, to save a rule.');
      return this.deps.runtime.answerQuestion(questionId, request.answer, request.content);
    }
    const question = this.deps.store.questions.get(questionId);
    if (!question) throw notFound('Question', questionId);
    if (request.content !== undefined) throw badRequest("content is for an elicitation's answer.");
    if (question.kind !== 'approval' || !question.tool)
      throw badRequest('remember is for approvals: a question has no rule to save.');
    if (request.answer !== 'allow' && request.answer !== 'deny')
      throw badRequest('An approval is answered "allow" or "deny".');
    const suggestion = question.permission?.suggestion ?? { tool: question.tool.name, pattern: null };
    const rule = this.deps.permissions.rememberedRule(
      question.session_id,
      request.remember,
      request.answer,
      suggestion,
      request.pattern,
    );
    // The answer first (it refuses a question that is no longer pending), then the rule it asked to keep.
    const answered = this.deps.runtime.answerQuestion(questionId, request.answer);
    this.deps.permissions.create(rule);
    return answered;
  }
}
