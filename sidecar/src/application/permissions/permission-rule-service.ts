import { badRequest, notFound } from '../../errors';
import type {
  CreatePermissionRuleRequest,
  ListPermissionRulesQuery,
  PermissionAction,
  PermissionDecision,
  PermissionRule,
  RememberScope,
  RuleSuggestion,
  TestPermissionRequest,
  UpdatePermissionRuleRequest,
} from '../../protocol';
import type { Store } from '../../store/store';
import { builtinTools } from '../../tools/builtin';
import { decidePermission, patternProblem } from '../../tools/permissions/permission-policy';
import { resolveProjectRoot } from '../../tools/project-root';

/**
 * Permission rules: listing, adding (global, a project's or a session's), editing and deleting them, the
 * rule an answered approval saves, and what the rules would decide for a call (the Settings "test" box).
 */
export class PermissionRuleService {
  constructor(private readonly store: Store) {}

  list(query: ListPermissionRulesQuery): PermissionRule[] {
    if (query.project_id !== undefined) this.project(query.project_id);
    if (query.session_id !== undefined) this.session(query.session_id);
    return this.store.permissionRules.list({
      ...(query.project_id !== undefined ? { projectId: query.project_id } : {}),
      ...(query.session_id !== undefined ? { sessionId: query.session_id } : {}),
      globalOnly: query.scope === 'global',
    });
  }

  create(request: CreatePermissionRuleRequest): PermissionRule {
    let projectId = request.project_id;
    if (request.session_id !== null) {
      const session = this.session(request.session_id);
      if (projectId !== null && projectId !== session.project_id)
        throw badRequest(`Session ${session.id} is not in project ${projectId}: give one or the other.`);
      // A session's rule is listed with its project's.
      projectId = session.project_id;
    } else if (projectId !== null) {
      this.project(projectId);
    }
    this.checkPattern(request.tool, request.pattern);
    return this.store.permissionRules.create({
      tool: request.tool,
      pattern: request.pattern,
      action: request.action,
      projectId,
      sessionId: request.session_id,
    });
  }

  update(id: string, patch: UpdatePermissionRuleRequest): PermissionRule {
    const current = this.get(id);
    const tool = patch.tool ?? current.tool;
    const pattern = patch.pattern === undefined ? current.pattern : patch.pattern;
    this.checkPattern(tool, pattern);
    return this.store.permissionRules.update(id, { tool, pattern, action: patch.action ?? current.action })!;
  }

  remove(id: string): void {
    if (!this.store.permissionRules.delete(id)) throw notFound('Permission rule', id);
  }

  /**
   * The rule an approval's "always" or "for this session" would save: the card's suggestion, or the user's
   * edited pattern, in the scope chosen. Checked whole (scope and pattern) and not yet saved, so the answer
   * can be refused with nothing changed.
   */
  rememberedRule(
    sessionId: string,
    scope: RememberScope,
    action: Extract<PermissionAction, 'allow' | 'deny'>,
    suggestion: RuleSuggestion,
    pattern: string | null | undefined,
  ): CreatePermissionRuleRequest {
    const session = this.session(sessionId);
    if (scope === 'project' && session.project_id === null)
      throw badRequest('This session has no project: remember the rule for the session or globally.');
    const rule: CreatePermissionRuleRequest = {
      tool: suggestion.tool,
      pattern: pattern === undefined ? suggestion.pattern : pattern,
      action,
      project_id: scope === 'global' ? null : session.project_id,
      session_id: scope === 'session' ? session.id : null,
    };
    this.checkPattern(rule.tool, rule.pattern);
    return rule;
  }

  private checkPattern(tool: string, pattern: string | null): void {
    const problem = patternProblem(tool, pattern);
    if (problem !== null) throw badRequest(problem);
  }

  /**
   * What the rules of a scope (and a mode) decide for a call. A session gives its project, its own rules and
   * its mode; a tool this server does not know is taken to have side effects.
   */
  async test(request: TestPermissionRequest): Promise<PermissionDecision> {
    const session = request.session_id !== null ? this.session(request.session_id) : null;
    const projectId = session ? session.project_id : request.project_id;
    const project = projectId !== null ? this.project(projectId) : null;
    const tool = builtinTools().find((t) => t.name === request.tool);
    return decidePermission({
      tool: request.tool,
      input: request.input,
      mode: request.approval ?? session?.approval ?? 'ask',
      sideEffects: tool?.sideEffects ?? true,
      projectRoot: project ? resolveProjectRoot(project.path) : null,
      rules: this.store.permissionRules.applicable(projectId, session?.id ?? null),
    });
  }

  private get(id: string): PermissionRule {
    const rule = this.store.permissionRules.get(id);
    if (!rule) throw notFound('Permission rule', id);
    return rule;
  }

  private session(id: string) {
    const session = this.store.sessions.get(id);
    if (!session) throw notFound('Session', id);
    return session;
  }

  private project(id: string) {
    const project = this.store.projects.get(id);
    if (!project) throw notFound('Project', id);
    return project;
  }
}
