import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool, MAX_GLOB_RESULTS } from '../../src/tools/builtin/glob';
import { defaultRipgrep, grepTool, MAX_GREP_MATCHES, runGrep } from '../../src/tools/builtin/grep';
import { ToolError } from '../../src/tools/tool';
import { makeContext, makeTempDir, removeDir, runTool, type TestContext } from './tool-context';

let root: string;
let ctx: TestContext;

/** Writes files (path → text) under the project. */
async function files(tree: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, text] of Object.entries(tree)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
}

/** A project with ignored files at several levels, each containing NEEDLE. */
async function ignoredProject(): Promise<void> {
  await files({
    '.gitignore': 'node_modules/\n*.log\n!keep.log\n/build\n',
    'src/.gitignore': 'generated.ts\n',
    'src/a.ts': 'const NEEDLE = 1;\n',
    'src/sub/b.ts': '// NEEDLE here\nNEEDLE again\n',
    'src/generated.ts': 'NEEDLE\n',
    'src/keep.log': 'NEEDLE kept\n',
    'src/noise.log': 'NEEDLE\n',
    'node_modules/dep/index.ts': 'NEEDLE\n',
    'build/out.ts': 'NEEDLE\n',
    '.git/config': 'NEEDLE\n',
    '.github/ci.yml': 'NEEDLE: yes\n',
    'README.md': 'no match here\n',
  });
}

beforeEach(async () => {
  root = await makeTempDir();
  ctx = makeContext({ projectRoot: root });
});
afterEach(() => removeDir(root));

describe('Glob', () => {
  it('finds files, honouring root and nested .gitignore files and skipping .git', async () => {
    await ignoredProject();
    const result = await runTool(globTool, { pattern: '**/*' }, ctx);
    expect(result.content.split('\n').sort()).toEqual(
      [
        '.github/ci.yml',
        '.gitignore',
        'README.md',
        'src/.gitignore',
        'src/a.ts',
        'src/keep.log',
        'src/sub/b.ts',
      ].sort(),
    );
  });

  it('lists the newest files first', async () => {
    await files({ 'old.ts': '', 'mid.ts': '', 'new.ts': '', 'other.md': '' });
    const t = Date.now() / 1000;
    await fs.utimes(path.join(root, 'old.ts'), t - 300, t - 300);
    await fs.utimes(path.join(root, 'mid.ts'), t - 200, t - 200);
    await fs.utimes(path.join(root, 'new.ts'), t - 100, t - 100);
    expect((await runTool(globTool, { pattern: '*.ts' }, ctx)).content).toBe('new.ts\nmid.ts\nold.ts');
  });

  it('searches below `path`, returning project-relative paths', async () => {
    await ignoredProject();
    const result = await runTool(globTool, { pattern: '**/*.ts', path: 'src' }, ctx);
    expect(result.content.split('\n').sort()).toEqual(['src/a.ts', 'src/sub/b.ts']);
  });

  it('looks inside an ignored folder when it is asked for explicitly', async () => {
    await ignoredProject();
    const result = await runTool(globTool, { pattern: '**/*.ts', path: 'node_modules' }, ctx);
    expect(result.content).toBe('node_modules/dep/index.ts');
  });

  it('says so when nothing matches (not an error)', async () => {
    const result = await runTool(globTool, { pattern: '**/*.rs' }, ctx);
    expect(result.isError).toBeFalsy();
    expect(result.content).toMatch(/^No files match "\*\*\/\*\.rs"/);
  });

  it('caps the results with a note', async () => {
    await files(
      Object.fromEntries(Array.from({ length: MAX_GLOB_RESULTS + 5 }, (_, i) => [`f${i}.txt`, ''])),
    );
    const result = await runTool(globTool, { pattern: '*.txt' }, ctx);
    expect(result.content).toContain(
      `[Showing the ${MAX_GLOB_RESULTS} newest of ${MAX_GLOB_RESULTS + 5} files`,
    );
  });

  it('refuses patterns that climb out and a path that is a file', async () => {
    await files({ 'a.txt': '' });
    for (const pattern of ['../*', 'src/../../x', '{..,src}/*', '/etc/*']) {
      await expect(runTool(globTool, { pattern }, ctx)).rejects.toThrow(ToolError);
    }
    await expect(runTool(globTool, { pattern: '*', path: 'a.txt' }, ctx)).rejects.toThrow(/not a folder/);
  });
});

const rg = defaultRipgrep();
const implementations: [string, string | null][] = [
  ['ripgrep', rg],
  ['built-in search', null],
];

describe.each(implementations)('Grep with %s', (name, rgPath) => {
  const maybe = it.skipIf(name === 'ripgrep' && rgPath === null);
  const grep = (input: { pattern: string; path?: string; glob?: string }) => runGrep(input, ctx, rgPath);

  maybe('returns path:line:text, honouring .gitignore at every level and skipping .git', async () => {
    await ignoredProject();
    const result = await grep({ pattern: 'NEEDLE' });
    expect(result.isError).toBeFalsy();
    expect(result.content.split('\n')).toEqual([
      '.github/ci.yml:1:NEEDLE: yes',
      'src/a.ts:1:const NEEDLE = 1;',
      'src/keep.log:1:NEEDLE kept',
      'src/sub/b.ts:1:// NEEDLE here',
      'src/sub/b.ts:2:NEEDLE again',
    ]);
  });

  maybe('filters by glob, by folder and by single file', async () => {
    await ignoredProject();
    expect((await grep({ pattern: 'NEEDLE', glob: '*.log' })).content).toBe('src/keep.log:1:NEEDLE kept');
    expect((await grep({ pattern: 'NEEDLE', glob: '!*.ts' })).content.split('\n')).toEqual([
      '.github/ci.yml:1:NEEDLE: yes',
      'src/keep.log:1:NEEDLE kept',
    ]);
    expect((await grep({ pattern: 'again', path: 'src/sub' })).content).toBe('src/sub/b.ts:2:NEEDLE again');
    expect((await grep({ pattern: 'NEEDLE', path: 'src/a.ts' })).content).toBe(
      'src/a.ts:1:const NEEDLE = 1;',
    );
  });

  maybe('uses regular expressions, with (?i) for case-insensitivity', async () => {
    await files({ 'x.txt': 'foo1\nFOO22\nbar\n' });
    expect((await grep({ pattern: 'foo\\d+' })).content).toBe('x.txt:1:foo1');
    expect((await grep({ pattern: '(?i)^foo\\d{2}$' })).content).toBe('x.txt:2:FOO22');
  });

  maybe('skips binary files', async () => {
    await files({ 'bin.dat': Buffer.from('NEEDLE\0\x01\x02'), 'text.txt': 'NEEDLE\n' });
    expect((await grep({ pattern: 'NEEDLE' })).content).toBe('text.txt:1:NEEDLE');
  });

  maybe('reports no matches as a normal result', async () => {
    await files({ 'x.txt': 'hello\n' });
    const result = await grep({ pattern: 'absent' });
    expect(result.isError).toBeFalsy();
    expect(result.content).toMatch(/^No matches for \/absent\//);
  });

  maybe('caps the matches with a note', async () => {
    await files({ 'many.txt': 'hit\n'.repeat(MAX_GREP_MATCHES + 50) });
    const result = await grep({ pattern: 'hit' });
    const lines = result.content.split('\n');
    expect(lines.filter((l) => l.startsWith('many.txt:'))).toHaveLength(MAX_GREP_MATCHES);
    expect(result.content).toContain(`[Showing the first ${MAX_GREP_MATCHES} matches`);
  });

  maybe('refuses an invalid regular expression', async () => {
    await files({ 'x.txt': 'hello\n' });
    await expect(grep({ pattern: '(unclosed' })).rejects.toThrow(ToolError);
  });
});

describe('grepTool', () => {
  it('runs with whatever search is available', async () => {
    await files({ 'x.txt': 'hello world\n' });
    expect((await runTool(grepTool, { pattern: 'wor' }, ctx)).content).toBe('x.txt:1:hello world');
  });
});
