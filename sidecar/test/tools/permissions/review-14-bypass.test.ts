// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` in plain strings is shell text, the data under test.
import { afterAll, describe, expect, it } from 'vitest';
import { allowEcho, bash, denyPush, denyRm, echoButNoRm, type Row } from './decision-rules';
import { decide, makePolicyProject, rule } from './policy-fixture';

// Review of issue 14: bypasses found by running each command in real bash (see /work/notes/review-14.md).
// Every row here FAILS on the reviewed code: the policy allows a line that runs `rm` / `git push` / unlisted code.
const project = makePolicyProject();
afterAll(() => project.remove());

const allowGit = rule('allow_git', 'Bash', 'git *', 'allow');
const allowPrintf = rule('allow_printf', 'Bash', 'printf *', 'allow');
const allowTest = rule('allow_test', 'Bash', 'test *', 'allow');
const allowGitStatus = rule('allow_git_status', 'Bash', 'git status', 'allow');
const allowNpmTest = rule('allow_npm_test', 'Bash', 'npm test *', 'allow');

const rows: Row[] = [
  // Arithmetic / indirect / prompt expansion of a literal string runs the substitution inside it.
  [
    'arith eval of a[$(rm)] via $((x))',
    'Bash',
    bash("x='a[$(rm x)]'; echo $((x))"),
    'ask',
    echoButNoRm,
    'ask',
  ],
  [
    'arith eval via [[ $x -eq 0 ]]',
    'Bash',
    bash("x='a[$(rm x)]'; [[ $x -eq 0 ]]; echo"),
    'ask',
    echoButNoRm,
    'ask',
  ],
  ['indirect ${!x} of a[$(rm)]', 'Bash', bash("x='a[$(rm x)]'; echo ${!x}"), 'ask', echoButNoRm, 'ask'],
  ['${x@P} prompt expansion', 'Bash', bash("x='$(rm x)'; echo ${x@P}"), 'ask', echoButNoRm, 'ask'],
  [
    'printf -v with a subscript',
    'Bash',
    bash("printf -v 'a[$(rm x)]' %s 1"),
    'ask',
    [allowPrintf, denyRm],
    'ask',
  ],
  ['test -v with a subscript', 'Bash', bash("test -v 'a[$(rm x)]'"), 'ask', [allowTest, denyRm], 'ask'],
  // Line continuation inside a word: tree-sitter splits it, bash joins it.
  [
    'git pu\\<newline>sh',
    'Bash',
    bash('git pu\\\nsh --force origin main'),
    'ask',
    [allowGit, denyPush],
    'deny',
  ],
  ['r\\<newline>m in auto', 'Bash', bash('r\\\nm -rf x'), 'auto', [denyRm], 'deny'],
  // Wrappers / shell options the reader does not know.
  ["env -S'rm' (attached)", 'Bash', bash("env -S'rm -rf x'"), 'auto', [denyRm], 'deny'],
  ['bash --rcfile F -c', 'Bash', bash("bash --rcfile /dev/null -c 'rm x'"), 'auto', [denyRm], 'deny'],
  ['coproc NAME { rm; }', 'Bash', bash('coproc f { rm x; }'), 'auto', [denyRm], 'deny'],
  ['setsid rm', 'Bash', bash('setsid rm x'), 'auto', [denyRm], 'deny'],
  // Program-changing variables given through env are not checked.
  [
    'env BASH_ENV=F bash -c allowed',
    'Bash',
    bash("echo 'rm x' > e.sh; env BASH_ENV=./e.sh bash -c 'npm test'"),
    'ask',
    [allowEcho, allowNpmTest, denyRm],
    'ask',
  ],
  ['env PATH=./bin npm test', 'Bash', bash('env PATH=./bin:/usr/bin npm test'), 'ask', [allowNpmTest], 'ask'],
  // git config executing code.
  ["git -c alias.x='!rm'", 'Bash', bash("git -c alias.x='!rm -rf y' x"), 'ask', [allowGit, denyRm], 'ask'],
  [
    'write .git/config then git status',
    'Bash',
    bash("printf '[core]\\n\\tfsmonitor = rm x\\n' >> .git/config; git status"),
    'ask',
    [allowPrintf, allowGitStatus],
    'ask',
  ],
];

describe('review 14: policy bypasses (expected verdicts)', () => {
  it.each(rows)('%s', async (_d, tool, input, mode, rules, expected) => {
    const decision = await decide(tool, input, mode, rules, project.root);
    expect(decision.decision, decision.reason).toBe(expected);
  });
});
