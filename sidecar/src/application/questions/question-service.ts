import type { AgentRuntime } from '../../agent/agent-runtime';
import { badRequest, CairnError, notFound } from '../../errors';
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
      return this.deps.runtime.answerQuestion(questionId, request.answer);
    }
    const question = this.deps.store.questions.get(questionId);
    if (!question) throw notFound('Question', questionId);
    if (question.kind !== 'approval' || !question.tool)
      throw badRequest('remember is for approvals: a question has no rule to save.');
    if (request.answer !== 'allow' && request.answer !== 'deny')
      throw badRequest('An approval is answered "allow" or "deny".');
    if (question.status !== 'pending')
      throw new CairnError(
        'conflict',
        `Question ${questionId} is already ${question.status}; it takes no answer now.`,
      );
    const suggestion = question.permission?.suggestion ?? { tool: question.tool.name, pattern: null };
    const pattern = request.pattern === undefined ? suggestion.pattern : request.pattern;
    this.deps.permissions.checkPattern(suggestion.tool, pattern);
    if (request.remember === 'project' && !this.deps.store.sessions.get(question.session_id)?.project_id)
      throw badRequest('This session has no project: remember the rule for the session or globally.');
    const answered = this.deps.runtime.answerQuestion(questionId, request.answer);
    this.deps.permissions.remember(
      question.session_id,
      request.remember,
      request.answer,
      suggestion,
      pattern,
    );
    return answered;
  }
}
