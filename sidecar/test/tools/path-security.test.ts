import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/builtin/edit';
import { globTool } from '../../src/tools/builtin/glob';
import { defaultRipgrep, runGrep } from '../../src/tools/builtin/grep';
import { readTool } from '../../src/tools/builtin/read';
import { writeTool } from '../../src/tools/builtin/write';
import { expectOutsideRefused } from './expect-outside-refused';
import { makeContext, makeTempDir, removeDir, runTool, type TestContext } from './tool-context';

/**
 * Layout: <tmp>/proj is the project; <tmp>/proj-evil shares its prefix; <tmp>/outside is elsewhere.
 * Each holds secret.txt containing SECRET. Inside the project, `out-dir` and `out-file` are symlinks to
 * outside, and `dangling` points at a file outside that does not exist yet.
 */
let tmp: string;
let root: string;
let ctx: TestContext;

beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp, 'proj');
  for (const dir of ['proj', 'proj-evil', 'outside']) {
    await fs.mkdir(path.join(tmp, dir));
    await fs.writeFile(path.join(tmp, dir, 'secret.txt'), 'SECRET\n');
  }
  if (process.platform !== 'win32') {
    await fs.symlink(path.join(tmp, 'outside'), path.join(root, 'out-dir'));
    await fs.symlink(path.join(tmp, 'outside', 'secret.txt'), path.join(root, 'out-file'));
    await fs.symlink(path.join(tmp, 'outside', 'created.txt'), path.join(root, 'dangling'));
  }
  ctx = makeContext({ projectRoot: root, sessionResultsDir: path.join(tmp, 'results') });
});
afterEach(() => removeDir(tmp));

/** The test tables are built before `tmp` exists; `{tmp}` stands for it. */
const TMP = '{tmp}';
const at = (p: string) => p.replace(TMP, tmp);

/** Paths naming a file outside the project, each a different way. */
function outsideFiles(): Record<string, string> {
  const paths: Record<string, string> = {
    dotdot: '../outside/secret.txt',
    'sibling prefix': '../proj-evil/secret.txt',
    'absolute sibling prefix': path.join(TMP, 'proj-evil', 'secret.txt'),
    absolute: path.join(TMP, 'outside', 'secret.txt'),
  };
  if (process.platform !== 'win32') {
    paths['symlinked file'] = 'out-file';
    paths['through a symlinked folder'] = 'out-dir/secret.txt';
  }
  return paths;
}

/** Folders outside the project, for Glob's and Grep's `path`. */
function outsideFolders(): Record<string, string> {
  const paths: Record<string, string> = {
    dotdot: '..',
    'dotdot outside': '../outside',
    'sibling prefix': '../proj-evil',
    absolute: path.join(TMP, 'outside'),
  };
  if (process.platform !== 'win32') paths['symlinked folder'] = 'out-dir';
  return paths;
}

async function outsideUntouched(): Promise<void> {
  for (const dir of ['outside', 'proj-evil']) {
    expect(await fs.readFile(path.join(tmp, dir, 'secret.txt'), 'utf8')).toBe('SECRET\n');
  }
  await expect(fs.access(path.join(tmp, 'outside', 'created.txt'))).rejects.toThrow();
}

describe('every file tool stays inside the project', () => {
  it.each(Object.entries(outsideFiles()))('Read refuses %s', async (_, p) => {
    await expectOutsideRefused(() => runTool(readTool, { path: at(p) }, ctx));
  });

  it.each(Object.entries(outsideFiles()))('Write refuses %s', async (_, p) => {
    await expectOutsideRefused(() => runTool(writeTool, { path: at(p), content: 'PWNED' }, ctx));
    await outsideUntouched();
  });

  it.skipIf(process.platform === 'win32')('Write refuses a dangling symlink to outside', async () => {
    await expectOutsideRefused(() => runTool(writeTool, { path: 'dangling', content: 'PWNED' }, ctx));
    await expectOutsideRefused(() =>
      runTool(writeTool, { path: 'out-dir/new/file.txt', content: 'PWNED' }, ctx),
    );
    await outsideUntouched();
  });

  it.each(Object.entries(outsideFiles()))('Edit refuses %s', async (_, p) => {
    await expectOutsideRefused(() =>
      runTool(editTool, { path: at(p), old_string: 'SECRET', new_string: 'PWNED' }, ctx),
    );
    await outsideUntouched();
  });

  it.each(Object.entries(outsideFolders()))('Glob refuses a path that is %s', async (_, p) => {
    await expectOutsideRefused(() => runTool(globTool, { pattern: '**/*', path: at(p) }, ctx));
  });

  const greps: [string, string | null][] = [
    ['ripgrep', defaultRipgrep()],
    ['built-in search', null],
  ];
  describe.each(greps)('Grep with %s', (name, rgPath) => {
    const maybe = it.skipIf(name === 'ripgrep' && rgPath === null);
    maybe.each(Object.entries({ ...outsideFolders(), ...outsideFiles() }))(
      'refuses a path that is %s',
      async (_, p) => {
        await expectOutsideRefused(() => runGrep({ pattern: 'SECRET', path: at(p) }, ctx, rgPath));
      },
    );

    it.skipIf((rgPath === null && name === 'ripgrep') || process.platform === 'win32')(
      'does not follow symlinks out of the project',
      async () => {
        const result = await runGrep({ pattern: 'SECRET' }, ctx, rgPath);
        expect(result.content.split('\n')).toEqual(['secret.txt:1:SECRET']);
      },
    );
  });

  it.skipIf(process.platform === 'win32')('Glob lists symlinks without walking through them', async () => {
    const result = await runTool(globTool, { pattern: '**/*.txt' }, ctx);
    expect(result.content).toBe('secret.txt');
  });
});
