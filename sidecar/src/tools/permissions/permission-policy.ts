import type { ApprovalMode, PermissionDecision, PermissionRule } from '../../protocol';

/** One call to decide on: the tool, its input, the session's mode and the rules of its scope. */
export interface PermissionQuery {
  tool: string;
  /** The call's input as the tool takes it (the runtime's own is_wait/timeout already taken off). */
  input: unknown;
  mode: ApprovalMode;
  /** The tool's own flag (tools without side effects run in every mode unless a rule says otherwise). */
  sideEffects: boolean;
  /** The project's real path, or null in a session without a project. */
  projectRoot: string | null;
  /** The rules that apply to the call's scope (global, its project's, its session's). */
  rules: readonly PermissionRule[];
}

/**
 * The verdict on one call: any matching deny denies, else any matching ask asks, else a matching allow
 * allows, else the mode decides. (Interim: rules are matched on the tool name only; the shell-aware
 * matcher replaces this.)
 */
export async function decidePermission(query: PermissionQuery): Promise<PermissionDecision> {
  const suggestion = { tool: query.tool, pattern: null };
  const matching = query.rules.filter((r) => r.tool === query.tool && r.pattern === null);
  for (const action of ['deny', 'ask', 'allow'] as const) {
    const rule = matching.find((r) => r.action === action);
    if (rule)
      return { decision: action, rule_id: rule.id, reason: `Rule ${rule.id} says ${action}.`, suggestion };
  }
  if (!query.sideEffects)
    return { decision: 'allow', rule_id: null, reason: 'It has no side effects.', suggestion };
  const byMode = { read_only: 'deny', ask: 'ask', auto_edits: 'ask', auto: 'allow' } as const;
  return {
    decision: byMode[query.mode],
    rule_id: null,
    reason: `The session's mode is ${query.mode}.`,
    suggestion,
  };
}

/** Why a rule's pattern cannot be used for its tool (null when it can). */
export function patternProblem(_tool: string, _pattern: string | null): string | null {
  return null;
}
