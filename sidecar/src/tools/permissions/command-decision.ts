import type { PermissionDecision, PermissionRule, RuleSuggestion } from '../../protocol';
import { isCommandRunner } from './code-runners';
import {
  type CommandPattern,
  matchCommandPattern,
  type PatternMatch,
  parseCommandPattern,
} from './command-pattern';
import { modeDecision, READ_ONLY_REASON } from './mode-decision';
import type { PermissionQuery } from './permission-policy';
import { suggestCommandPattern } from './rule-suggestion';
import { analyseShellCommand, analyseWords, type ShellAnalysis, type SimpleCommand } from './shell-commands';
import { loadBashParser } from './shell-parser';

/** A rule with its pattern parsed (null pattern: every command). */
interface CommandRule {
  rule: PermissionRule;
  pattern: CommandPattern | null;
}

/** The first rule of `rules` that matches some form of some command at least as well as `level`. */
interface RuleHit {
  rule: PermissionRule;
  command: SimpleCommand;
  match: PatternMatch;
}

/**
 * The verdict on a Bash or Exec call: every simple command must be allowed for rules to allow it; any
 * form of any command matching a deny rule denies; a command part that cannot be read asks (except in
 * auto when no rule denies or asks).
 */
export async function decideCommand(
  query: PermissionQuery,
  rules: readonly PermissionRule[],
): Promise<PermissionDecision> {
  const analysis = await analyseCall(query);
  const parsed = rules.flatMap((rule): CommandRule[] => {
    if (rule.pattern === null) return [{ rule, pattern: null }];
    const pattern = parseCommandPattern(rule.pattern);
    return 'problem' in pattern ? [] : [{ rule, pattern }];
  });
  const of = (action: PermissionRule['action']) => parsed.filter((r) => r.rule.action === action);
  // An allow counts on the forms up to a wrapper that changes privileges (`sudo npm test` needs `sudo …`).
  const allowedBy = (command: SimpleCommand) =>
    of('allow').find((r) =>
      command.forms.slice(0, command.allowForms).some((form) => matches(r, form) === 'match'),
    )?.rule ?? null;
  const notAllowed = analysis.commands.filter((c) => !c.codeOnly && allowedBy(c) === null);
  const suggestion = suggest(query.tool, notAllowed, analysis.commands);
  const decide = (
    decision: PermissionDecision['decision'],
    rule: PermissionRule | null,
    reason: string,
  ): PermissionDecision => ({ decision, rule_id: rule?.id ?? null, reason, suggestion });

  const denied = firstHit(of('deny'), analysis.commands, 'match');
  if (denied !== null) {
    return decide(
      'deny',
      denied.rule,
      `Rule ${denied.rule.id} denies ${described(denied)}: ${denied.command.text}`,
    );
  }
  const asked = firstHit(of('ask'), analysis.commands, 'match');
  if (asked !== null) {
    return decide(
      'ask',
      asked.rule,
      `Rule ${asked.rule.id} asks before ${described(asked)}: ${asked.command.text}`,
    );
  }
  const maybe = firstHit([...of('deny'), ...of('ask')], analysis.commands, 'maybe');
  // A read-only session refuses what may be denied, as it refuses every unread part.
  if (maybe !== null && query.mode === 'read_only') return decide('deny', null, READ_ONLY_REASON);
  if (maybe !== null) {
    const verb = maybe.rule.action === 'deny' ? 'denies' : 'asks before';
    return decide(
      'ask',
      maybe.rule,
      `\`${maybe.command.text}\` may be what rule ${maybe.rule.id} ${verb} (${described(maybe)}): some of its words are only known when it runs.`,
    );
  }
  const unvouched = analysis.unvouched[0];
  if (unvouched !== undefined) {
    const guarded = parsed.some((r) => r.rule.action !== 'allow');
    if (query.mode === 'read_only') return decide('deny', null, READ_ONLY_REASON);
    if (query.mode !== 'auto' || guarded) return decide('ask', null, unvouched.reason);
  } else {
    const vouched = analysis.commands.filter((c) => !c.codeOnly);
    if (vouched.length > 0 && notAllowed.length === 0) {
      const rule = allowedBy(vouched[0] as SimpleCommand);
      const reason =
        vouched.length === 1
          ? `Rule ${rule?.id} allows ${patternText(rule)}: ${vouched[0]?.text}`
          : `Rules allow each of its ${vouched.length} commands (rule ${rule?.id} allows ${patternText(rule)}).`;
      return decide('allow', rule, reason);
    }
  }
  return modeDecision(query, suggestion, notAllowed[0]?.text ?? null);
}

async function analyseCall(query: PermissionQuery): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  const input = (query.input ?? {}) as { command?: unknown; program?: unknown; args?: unknown };
  if (query.tool === 'Exec') {
    const args = Array.isArray(input.args) ? input.args : [];
    if (typeof input.program === 'string' && args.every((a): a is string => typeof a === 'string')) {
      return analyseWords(parser, [input.program, ...args]);
    }
  } else if (typeof input.command === 'string') {
    return analyseShellCommand(parser, input.command, query.projectRoot);
  }
  return { commands: [], unvouched: [{ text: '', reason: 'The call has no command that can be read.' }] };
}

function matches(rule: CommandRule, form: SimpleCommand['forms'][number]): PatternMatch {
  return rule.pattern === null ? 'match' : matchCommandPattern(rule.pattern, form);
}

/** In the rules' order, the first rule matching some form of some command at `level`. */
function firstHit(
  rules: readonly CommandRule[],
  commands: readonly SimpleCommand[],
  level: PatternMatch,
): RuleHit | null {
  for (const rule of rules) {
    for (const command of commands) {
      if (command.forms.some((form) => matches(rule, form) === level)) {
        return { rule: rule.rule, command, match: level };
      }
    }
  }
  return null;
}

function described(hit: RuleHit): string {
  return hit.rule.pattern === null ? 'every command' : `\`${hit.rule.pattern}\``;
}

function patternText(rule: PermissionRule | null): string {
  return rule?.pattern == null ? 'every command' : `\`${rule.pattern}\``;
}

/**
 * "Always allow" proposes the first command no rule allows yet (else the first command), from the form
 * an allow would have to match (`sudo npm test` → `sudo npm test *`), else the innermost command
 * (`timeout 60 npm test` → `npm test *`); never a bare wrapper (`timeout *`, `sudo *`), which would
 * allow every command.
 */
function suggest(
  tool: string,
  notAllowed: readonly SimpleCommand[],
  all: readonly SimpleCommand[],
): RuleSuggestion {
  for (const command of [...notAllowed, ...all.filter((c) => !c.codeOnly)]) {
    for (const form of [command.forms[command.allowForms - 1], command.forms.at(-1)]) {
      const pattern = suggestCommandPattern(form ?? []);
      if (pattern !== null && !isBareWrapper(pattern)) return { tool, pattern };
    }
  }
  return { tool, pattern: null };
}

/** `timeout *`, `env *`: a pattern that names only a program running other commands. */
function isBareWrapper(pattern: string): boolean {
  const words = pattern.split(' ');
  return words.length === 2 && isCommandRunner(words[0] as string);
}
