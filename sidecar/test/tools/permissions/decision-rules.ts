import type { ApprovalMode, PermissionAction, PermissionRule } from '../../../src/protocol';
import { rule } from './policy-fixture';

export const bash = (command: string) => ({ command });
export const exec = (program: string, ...args: string[]) => ({ program, args });

export const denyRm = rule('deny_rm', 'Bash', 'rm *', 'deny');
export const denyPush = rule('deny_push', 'Bash', 'git push *', 'deny');
export const allowEcho = rule('allow_echo', 'Bash', 'echo *', 'allow');
export const allowCat = rule('allow_cat', 'Bash', 'cat *', 'allow');
export const allowTrue = rule('allow_true', 'Bash', 'true *', 'allow');
export const allowAnyBash = rule('allow_bash', 'Bash', null, 'allow');
/** The "done when": npm test and git status run unasked, rm -rf and git push are refused. */
export const doneWhen = [
  rule('allow_npm_test', 'Bash', 'npm test *', 'allow'),
  rule('allow_git_status', 'Bash', 'git status *', 'allow'),
  denyRm,
  denyPush,
];
export const echoButNoRm = [allowEcho, allowCat, allowTrue, denyRm];

/** One row of the decision table: a call, the rules of its scope, and the verdict (and deciding rule). */
export type Row = [
  description: string,
  tool: string,
  input: unknown,
  mode: ApprovalMode,
  rules: PermissionRule[],
  expected: PermissionAction,
  ruleId?: string | null,
];

export const many = (n: number, sep: string) => Array.from({ length: n }, (_, i) => `echo ${i}`).join(sep);
