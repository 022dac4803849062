import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globTool } from '../../src/tools/builtin/glob';
import { defaultRipgrep, runGrep } from '../../src/tools/builtin/grep';
import { expectOutsideRefused } from './expect-outside-refused';
import { makeContext, makeTempDir, removeDir, runTool, type TestContext } from './tool-context';

/**
 * Layout under <tmp>: `outside/` (secret.txt, deep/d.txt) is not the project; `results/` is the session's
 * results folder (r.txt, and `out-link` to outside); `proj/` is the project: own.txt, src/a.txt,
 * sub/real.txt, and the links `link-dir` (to outside), `root` (to the file system's root), `sub/deep-link`
 * (to outside), `inside-link` (to src), `file-link` (to outside/secret.txt), `inside-file-link` (to
 * src/a.txt). Every file holds SECRET. Folder links are junctions on Windows (no privilege needed); file
 * links need one there, so the tests using them run elsewhere only.
 */
let tmp: string;
let root: string;
let results: string;
let ctx: TestContext;
const windows = process.platform === 'win32';
const posixOnly = it.skipIf(windows);

/** The real files of the project, as Glob lists them. */
const PROJECT_FILES = ['own.txt', 'src/a.txt', 'sub/real.txt'];

async function write(rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(tmp, rel)), { recursive: true });
  await fs.writeFile(path.join(tmp, rel), text);
}

async function linkFolder(target: string, link: string): Promise<void> {
  await fs.symlink(target, path.join(tmp, link), 'junction');
}

beforeAll(async () => {
  tmp = await makeTempDir('cairn-symlinks-');
  root = path.join(tmp, 'proj');
  results = path.join(tmp, 'results');
  await write('outside/secret.txt', 'SECRET outside\n');
  await write('outside/deep/d.txt', 'SECRET deep outside\n');
  await write('results/r.txt', 'SECRET result\n');
  await write('proj/own.txt', 'SECRET own\n');
  await write('proj/src/a.txt', 'SECRET inside\n');
  await write('proj/sub/real.txt', 'SECRET sub\n');
  await linkFolder(path.join(tmp, 'outside'), 'results/out-link');
  await linkFolder(path.join(tmp, 'outside'), 'proj/link-dir');
  await linkFolder(path.parse(tmp).root, 'proj/root');
  await linkFolder(path.join(tmp, 'outside'), 'proj/sub/deep-link');
  await linkFolder(path.join(root, 'src'), 'proj/inside-link');
  if (!windows) {
    await fs.symlink(path.join(tmp, 'outside', 'secret.txt'), path.join(root, 'file-link'));
    await fs.symlink(path.join(root, 'src', 'a.txt'), path.join(root, 'inside-file-link'));
  }
  ctx = makeContext({ projectRoot: root, sessionResultsDir: results });
});
afterAll(() => removeDir(tmp));

/** Test tables are built before `tmp` exists; `{via-root}` stands for `outside/` reached through `root`. */
const VIA_ROOT = '{via-root}';
function at(pattern: string): string {
  const fromRoot = path.relative(path.parse(tmp).root, path.join(tmp, 'outside'));
  return pattern.replace(VIA_ROOT, `root/${fromRoot.split(path.sep).join('/')}`);
}

/** Patterns reaching outside through a link: first in the literal prefix, then deeper, then by `**`. */
function outsidePatterns(): string[] {
  return [
    'link-dir/**/*',
    'link-dir/*',
    'link-dir/secret.txt',
    'link-dir/deep/d.txt',
    `${VIA_ROOT}/*`,
    `${VIA_ROOT}/**/*`,
    `${VIA_ROOT}/secret.txt`,
    'sub/deep-link/*',
    'sub/deep-link/**/*',
    'sub/deep-link/deep/*.txt',
    'sub/*/secret.txt',
    '*/deep/*',
    '{link-dir,sub/deep-link}/**/*',
    '**/secret.txt',
    '**/d.txt',
  ];
}

async function glob(pattern: string, where?: string): Promise<string[]> {
  const input = { pattern: at(pattern), ...(where ? { path: at(where) } : {}) };
  const result = await runTool(globTool, input, ctx);
  return result.content.startsWith('No files match') ? [] : result.content.split('\n').sort();
}

describe('Glob and symbolic links', () => {
  it.each(outsidePatterns())('lists nothing outside the project for %s', async (pattern) => {
    expect(await glob(pattern)).toEqual([]);
  });

  it('lists exactly the real files for ** across every link', async () => {
    const cases: Record<string, string[]> = {
      '**/*': PROJECT_FILES,
      '**': PROJECT_FILES,
      '**/*.txt': PROJECT_FILES,
      '*/**/*': ['src/a.txt', 'sub/real.txt'],
      'sub/**/*': ['sub/real.txt'],
    };
    for (const [pattern, expected] of Object.entries(cases)) {
      expect(await glob(pattern), pattern).toEqual(expected);
    }
  });

  it('does not enter a link to a folder inside the project, named or not; `path` does', async () => {
    expect(await glob('inside-link/*')).toEqual([]);
    expect(await glob('inside-link/**/*')).toEqual([]);
    expect(await glob('**/a.txt')).toEqual(['src/a.txt']);
    expect(await glob('*', 'inside-link')).toEqual(['src/a.txt']);
  });

  it('says that links are skipped when nothing matches', async () => {
    const result = await runTool(globTool, { pattern: 'link-dir/**/*' }, ctx);
    expect(result.content).toMatch(/symbolic links are skipped/);
  });

  it('refuses a `path` that is a link to outside', async () => {
    for (const where of ['link-dir', 'sub/deep-link', VIA_ROOT]) {
      await expectOutsideRefused(() => runTool(globTool, { pattern: '**/*', path: at(where) }, ctx));
    }
  });

  posixOnly('does not list symlinked files, inside or outside', async () => {
    for (const pattern of ['file-link', 'inside-file-link', '*link*', '*']) {
      expect(await glob(pattern), pattern).toEqual(pattern === '*' ? ['own.txt'] : []);
    }
  });
});

const rg = defaultRipgrep();
const implementations: [string, string | null][] = [
  ['ripgrep', rg],
  ['built-in search', null],
];

describe.each(implementations)('Grep with %s and symbolic links', (name, rgPath) => {
  const maybe = it.skipIf(name === 'ripgrep' && rgPath === null);
  const maybePosix = it.skipIf((name === 'ripgrep' && rgPath === null) || windows);
  const grep = ({ path: where, glob }: { path?: string; glob?: string }) =>
    runGrep(
      { pattern: 'SECRET', ...(where ? { path: at(where) } : {}), ...(glob ? { glob: at(glob) } : {}) },
      ctx,
      rgPath,
    );
  const found = async (input: { path?: string; glob?: string }) => {
    const result = await grep(input);
    return result.content.startsWith('No matches') ? [] : result.content.split('\n');
  };

  maybe('searches only the real files of the project', async () => {
    expect(await found({})).toEqual([
      'own.txt:1:SECRET own',
      'src/a.txt:1:SECRET inside',
      'sub/real.txt:1:SECRET sub',
    ]);
  });

  maybe.each(outsidePatterns())('returns nothing outside the project for the glob %s', async (glob) => {
    expect(await found({ glob })).toEqual([]);
  });

  maybe('does not enter a link to a folder inside the project through the glob; `path` does', async () => {
    expect(await found({ glob: 'inside-link/**/*' })).toEqual([]);
    expect(await found({ glob: 'inside-link/*' })).toEqual([]);
    expect(await found({ path: 'inside-link' })).toEqual(['src/a.txt:1:SECRET inside']);
  });

  maybe('refuses a `path` that is a link to outside, also one deeper or under `root`', async () => {
    for (const where of ['link-dir', 'link-dir/deep', 'sub/deep-link', VIA_ROOT, `${VIA_ROOT}/secret.txt`]) {
      await expectOutsideRefused(() => grep({ path: where }));
    }
  });

  maybe('searches a folder below the project without following the links in it', async () => {
    expect(await found({ path: 'sub' })).toEqual(['sub/real.txt:1:SECRET sub']);
    expect(await found({ path: 'sub', glob: 'deep-link/**' })).toEqual([]);
  });

  maybe('searches the results folder without following a link in it to outside', async () => {
    const lines = await found({ path: results });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/r\.txt:1:SECRET result$/);
    expect(await found({ path: results, glob: 'out-link/**/*' })).toEqual([]);
    await expectOutsideRefused(() => grep({ path: path.join(results, 'out-link') }));
  });

  maybePosix(
    'does not return the contents of symlinked files; a `path` naming one inside is read',
    async () => {
      for (const glob of ['file-link', 'inside-file-link', '*link*']) {
        expect(await found({ glob }), glob).toEqual([]);
      }
      await expectOutsideRefused(() => grep({ path: 'file-link' }));
      expect(await found({ path: 'inside-file-link' })).toEqual(['src/a.txt:1:SECRET inside']);
    },
  );
});
