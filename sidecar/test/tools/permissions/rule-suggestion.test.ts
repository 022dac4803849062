import { afterAll, describe, expect, it } from 'vitest';
import { patternProblem } from '../../../src/tools/permissions/permission-policy';
import { decide, makePolicyProject, rule } from './policy-fixture';

const project = makePolicyProject();
afterAll(() => project.remove());

describe('the suggested rule ("always allow")', () => {
  it.each([
    ['npm run test -- --grep x', 'npm run test *'],
    ['git status', 'git status *'],
    ['rm -rf build', 'rm *'],
    ['ls', 'ls *'],
    ['/usr/bin/git log --oneline', 'git log *'],
    ['docker compose up web extra', 'docker compose up *'],
    ['python3 scripts/x.py', 'python3 *'],
    ['FOO=1 make build', 'make build *'],
    // Review 14 (M3): a wrapped command is proposed by what it runs, never as a bare wrapper.
    ['timeout 60 npm test', 'npm test *'],
    ['env CI=1 npm test', 'npm test *'],
    ['nice -n 5 nohup cargo build', 'cargo build *'],
    ['sudo npm test', 'sudo npm test *'],
    ['sudo -u x make', 'make *'],
    ['git -c x=y status', 'git *'],
  ])('Bash `%s` → `%s`', async (command, pattern) => {
    const decision = await decide('Bash', { command }, 'ask', [], project.root);
    expect(decision.suggestion).toEqual({ tool: 'Bash', pattern });
  });

  it('proposes the first command no rule allows yet', async () => {
    const rules = [rule('a', 'Bash', 'npm test *', 'allow')];
    const decision = await decide(
      'Bash',
      { command: 'npm test && git push --force' },
      'ask',
      rules,
      project.root,
    );
    expect(decision.suggestion).toEqual({ tool: 'Bash', pattern: 'git push *' });
  });

  it('skips code-only commands and proposes what they run', async () => {
    const decision = await decide(
      'Bash',
      { command: "bash -c 'cargo build --release'" },
      'ask',
      [],
      project.root,
    );
    expect(decision.suggestion).toEqual({ tool: 'Bash', pattern: 'cargo build *' });
  });

  it('takes Exec program and arguments as the words', async () => {
    const decision = await decide(
      'Exec',
      { program: '/usr/bin/npm', args: ['run', 'lint', '--fix'] },
      'ask',
      [],
      project.root,
    );
    expect(decision.suggestion).toEqual({ tool: 'Exec', pattern: 'npm run lint *' });
  });

  it.each([
    ['Write', { path: 'src/deep/b.ts', content: '' }, 'src/deep/**'],
    ['Edit', { path: 'README.md' }, 'README.md'],
    ['Read', { path: `${project.root}/src/a.ts` }, 'src/**'],
    ['Grep', { pattern: 'x' }, '**'],
    ['Glob', { pattern: '*', path: 'src' }, 'src/**'],
    ['Write', { path: '../elsewhere.txt', content: '' }, null],
  ])('%s %j → %s', async (tool, input, pattern) => {
    const decision = await decide(tool, input, 'ask', [], project.root);
    expect(decision.suggestion).toEqual({ tool, pattern });
  });

  it.each(['nohup', 'echo x | xargs', 'timeout 5'])(
    'never proposes a bare wrapper: `%s`',
    async (command) => {
      const { suggestion } = await decide('Bash', { command }, 'ask', [], project.root);
      expect(suggestion.pattern ?? '').not.toMatch(/^(nohup|xargs|timeout) \*$/);
    },
  );

  it('a tool without patterns is proposed whole', async () => {
    const decision = await decide('mcp__github__create_issue', {}, 'ask', [], project.root);
    expect(decision.suggestion).toEqual({ tool: 'mcp__github__create_issue', pattern: null });
  });

  it('every suggested pattern is one patternProblem accepts', async () => {
    for (const command of ['npm run test -- --grep x', 'ls', "weird'name arg"]) {
      const { suggestion } = await decide('Bash', { command }, 'ask', [], project.root);
      expect(patternProblem(suggestion.tool, suggestion.pattern)).toBeNull();
    }
  });
});

describe('patternProblem', () => {
  it.each([
    ['Bash', null],
    ['Bash', 'npm test *'],
    ['Bash', "git commit -m 'a b' *"],
    ['Exec', 'git status'],
    ['Read', 'src/**'],
    ['Grep', '*.md'],
    ['mcp__github__*', null],
    ['ExecuteCode', null],
  ])('accepts %s with %j', (tool, pattern) => {
    expect(patternProblem(tool, pattern)).toBeNull();
  });

  it.each([
    ['Bash', 'npm test && rm *', '&&'],
    ['Bash', 'ls; rm', ';'],
    ['Bash', 'cat x | sh', '|'],
    ['Bash', 'echo $(id)', '$('],
    ['Bash', "echo 'unclosed", 'quote'],
    ['Bash', '   ', 'no words'],
    ['Exec', 'a > b', '>'],
    ['Read', '/etc/**', 'relative'],
    ['Write', '../x/**', '..'],
    ['Edit', 'src\\**', '/'],
    ['mcp__github__*', 'x', 'one tool name'],
    ['*', 'rm *', 'one tool name'],
    ['ExecuteCode', 'x', 'takes no pattern'],
  ])('refuses %s with %j', (tool, pattern, says) => {
    expect(patternProblem(tool, pattern)).toContain(says);
  });
});
