import type { ApprovalMode, PermissionDecision, PermissionRule } from '../../protocol';
import { decideCommand } from './command-decision';
import { parseCommandPattern } from './command-pattern';
import { modeDecision } from './mode-decision';
import { decidePath, PATH_TOOLS } from './path-decision';
import { pathPatternProblem } from './path-pattern';
import { isToolGlob, toolMatches } from './tool-glob';

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

/** The tools whose rules take a command pattern. */
const COMMAND_TOOLS = new Set(['Bash', 'Exec']);

/**
 * The verdict on one call: any matching deny denies, else any matching ask asks, else a matching allow
 * allows, else the mode decides. Scope does not change precedence. A shell command is allowed by rules
 * only when every simple command in it is, and nothing in it is hidden from reading.
 */
export async function decidePermission(query: PermissionQuery): Promise<PermissionDecision> {
  const rules = query.rules.filter((rule) => toolMatches(rule.tool, query.tool));
  if (COMMAND_TOOLS.has(query.tool)) return decideCommand(query, rules);
  if (PATH_TOOLS.has(query.tool)) return decidePath(query, rules);
  return decideByName(query, rules);
}

/** Tools without patterns: a rule (with no pattern) decides for every call of the tools it names. */
function decideByName(query: PermissionQuery, rules: readonly PermissionRule[]): PermissionDecision {
  const suggestion = { tool: query.tool, pattern: null };
  const applying = rules.filter((rule) => rule.pattern === null);
  for (const action of ['deny', 'ask', 'allow'] as const) {
    const rule = applying.find((r) => r.action === action);
    if (rule === undefined) continue;
    const verb = { deny: 'denies', ask: 'asks before', allow: 'allows' }[action];
    const named = rule.tool === query.tool ? query.tool : `\`${rule.tool}\` (${query.tool})`;
    return { decision: action, rule_id: rule.id, reason: `Rule ${rule.id} ${verb} ${named}.`, suggestion };
  }
  return modeDecision(query, suggestion, null);
}

/** Why a rule's pattern cannot be used for its tool (null when it can; a null pattern always can). */
export function patternProblem(tool: string, pattern: string | null): string | null {
  if (pattern === null) return null;
  if (isToolGlob(tool)) {
    return `A pattern needs one tool name, and \`${tool}\` names several: give the tool's exact name, or no pattern to match any input.`;
  }
  if (COMMAND_TOOLS.has(tool)) {
    const parsed = parseCommandPattern(pattern.trim());
    return 'problem' in parsed ? parsed.problem : null;
  }
  if (PATH_TOOLS.has(tool)) return pathPatternProblem(pattern.trim());
  return `${tool} takes no pattern: its rules apply to every call, so leave the pattern empty.`;
}
