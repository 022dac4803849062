import type { PermissionDecision, PermissionRule } from '../../protocol';
import { isCaseInsensitivePlatform } from '../path-guard';
import { projectRelativePaths } from './call-paths';
import { modeDecision } from './mode-decision';
import { matchesPath, mayMatchBelow, parsePathPattern, pathPatternProblem } from './path-pattern';
import type { PermissionQuery } from './permission-policy';
import { inGitFolder } from './redirect-targets';
import { suggestPathPattern } from './rule-suggestion';

/** The file tools whose rules take a path pattern, and whether their path names a folder to search. */
export const PATH_TOOLS: ReadonlyMap<string, { searchesFolder: boolean }> = new Map([
  ['Read', { searchesFolder: false }],
  ['Write', { searchesFolder: false }],
  ['Edit', { searchesFolder: false }],
  ['Glob', { searchesFolder: true }],
  ['Grep', { searchesFolder: true }],
]);

type PathMatch = 'match' | 'below' | 'none';

/** The tools that change files, which must not change git's own folder unasked. */
const GIT_EDITING_TOOLS = new Set(['Write', 'Edit']);

/**
 * The verdict on a file tool's call: its path, made relative to the project, against the rules' path
 * patterns. A search (Glob, Grep) of a folder that may hold files a deny or ask rule names asks.
 */
export async function decidePath(
  query: PermissionQuery,
  rules: readonly PermissionRule[],
): Promise<PermissionDecision> {
  const searchesFolder = PATH_TOOLS.get(query.tool)?.searchesFolder ?? false;
  const input = (query.input ?? {}) as { path?: unknown };
  const requested = typeof input.path === 'string' ? input.path : searchesFolder ? '.' : null;
  const relatives = requested === null ? null : await projectRelativePaths(query.projectRoot, requested);
  const suggestion = {
    tool: query.tool,
    pattern: suggestPathPattern(relatives?.[0] ?? null, searchesFolder),
  };
  const shown = requested ?? '(no path)';
  const ignoreCase = isCaseInsensitivePlatform();
  // Git runs what its configuration and hooks name: an edit there is never a plain file edit.
  const editsGit = GIT_EDITING_TOOLS.has(query.tool) && (relatives ?? []).some(inGitFolder);

  const matchOf = (rule: PermissionRule): PathMatch => {
    if (rule.pattern === null) return 'match';
    if (relatives === null || pathPatternProblem(rule.pattern) !== null) return 'none';
    if (editsGit && rule.action === 'allow' && !inGitFolder(rule.pattern)) return 'none';
    const pattern = parsePathPattern(rule.pattern, ignoreCase);
    // Allowing needs every form of the path (as written, links followed) to match; denying and asking one.
    const hit =
      rule.action === 'allow'
        ? relatives.every((r) => matchesPath(pattern, r))
        : relatives.some((r) => matchesPath(pattern, r));
    if (hit) return 'match';
    if (rule.action !== 'allow' && searchesFolder && relatives.some((r) => mayMatchBelow(pattern, r))) {
      return 'below';
    }
    return 'none';
  };
  const decide = (
    decision: PermissionDecision['decision'],
    rule: PermissionRule,
    reason: string,
  ): PermissionDecision => ({ decision, rule_id: rule.id, reason, suggestion });
  const first = (action: PermissionRule['action'], level: PathMatch) =>
    rules.find((r) => r.action === action && matchOf(r) === level);

  const denied = first('deny', 'match');
  if (denied) return decide('deny', denied, `Rule ${denied.id} denies ${patternText(denied)}: ${shown}`);
  const asked = first('ask', 'match');
  if (asked) return decide('ask', asked, `Rule ${asked.id} asks before ${patternText(asked)}: ${shown}`);
  const below = first('deny', 'below') ?? first('ask', 'below');
  if (below) {
    const verb = below.action === 'deny' ? 'denies' : 'asks before';
    return decide(
      'ask',
      below,
      `Searching ${shown} may reach files rule ${below.id} ${verb} (${patternText(below)}).`,
    );
  }
  const allowed = first('allow', 'match');
  if (allowed) return decide('allow', allowed, `Rule ${allowed.id} allows ${patternText(allowed)}: ${shown}`);
  if (editsGit && query.mode === 'auto_edits') {
    return {
      decision: 'ask',
      rule_id: null,
      reason: `${shown} is inside a .git folder, whose configuration and hooks make git run commands; auto_edits asks before changing it.`,
      suggestion,
    };
  }
  return modeDecision(query, suggestion, null);
}

function patternText(rule: PermissionRule): string {
  return rule.pattern === null ? 'every call' : `\`${rule.pattern}\``;
}
