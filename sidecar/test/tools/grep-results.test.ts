import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRipgrep, runGrep } from '../../src/tools/builtin/grep';
import { ToolError } from '../../src/tools/tool';
import { makeContext, makeTempDir, removeDir } from './tool-context';

// The model is told to search a large saved result with Grep: that must work for the session's own
// result files, and only for those.
describe.each([
  ['ripgrep', defaultRipgrep()],
  ['built-in search', null],
])('Grep on saved results with %s', (name, rgPath) => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await removeDir(dir);
  });

  it.skipIf(name === 'ripgrep' && rgPath === null)(
    'searches the session’s result file, not another folder',
    async () => {
      const project = await makeTempDir();
      const results = await makeTempDir('cairn-results-');
      const elsewhere = await makeTempDir('cairn-elsewhere-');
      dirs.push(project, results, elsewhere);
      const file = path.join(results, 'tc_1', 'result.txt');
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, 'line one\nneedle in line two\nline three\n');
      await fs.writeFile(path.join(elsewhere, 'x.txt'), 'needle\n');
      const ctx = makeContext({ projectRoot: project, sessionResultsDir: results });

      const found = await runGrep({ pattern: 'needle', path: file }, ctx, rgPath);
      expect(found.content).toContain('needle in line two');
      expect(found.content).toContain(':2:');
      await expect(runGrep({ pattern: 'needle', path: elsewhere }, ctx, rgPath)).rejects.toThrow(ToolError);
    },
  );
});

// A path may hold `:<digits>:` (timestamped logs), so the text `path:line:text` cannot always be split;
// the result names each file and its line count for the card.
describe.each([
  ['ripgrep', defaultRipgrep()],
  ['built-in search', null],
])('Grep names the files it matched in, with %s', (name, rgPath) => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await removeDir(dir);
  });

  it.skipIf((name === 'ripgrep' && rgPath === null) || process.platform === 'win32')(
    'in order, with how many lines each has',
    async () => {
      const project = await makeTempDir();
      dirs.push(project);
      await fs.mkdir(path.join(project, 'logs'));
      await fs.writeFile(path.join(project, 'logs', '2024-01-01T10:30:00.log'), 'boom\nok\nboom again\n');
      await fs.writeFile(path.join(project, 'main.py'), 'raise boom\n');
      const found = await runGrep({ pattern: 'boom' }, makeContext({ projectRoot: project }), rgPath);
      expect(found.content.split('\n')[0]).toBe('logs/2024-01-01T10:30:00.log:1:boom');
      expect(found.meta).toEqual({
        files: [
          { path: 'logs/2024-01-01T10:30:00.log', count: 2 },
          { path: 'main.py', count: 1 },
        ],
      });
    },
  );
});
