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
