import fs from 'node:fs/promises';
import { z } from 'zod';
import { listFiles } from '../file-lister';
import { displayPath, requireProjectRoot, resolveInside } from '../path-guard';
import { defineTool, ToolError } from '../tool';

export const MAX_GLOB_RESULTS = 1000;
const STAT_BATCH = 64;

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A glob relative to `path`, e.g. `**/*.ts`, `src/**/*.{js,jsx}` or `*.md` (top level only).'),
  path: z
    .string()
    .optional()
    .describe('The folder to search in: relative to the project folder, or absolute (default: the project).'),
});

export const globTool = defineTool({
  name: 'Glob',
  description:
    'Finds files whose paths match a glob pattern. Returns project-relative paths, newest first (by ' +
    `modification time), at most ${MAX_GLOB_RESULTS}. Skips .git, files ignored by .gitignore and ` +
    'symbolic links (symlinked files are not listed, symlinked folders not entered, even when the pattern ' +
    'names them; to list a linked folder inside the project pass it as `path`); dotfiles are included.',
  inputSchema,
  sideEffects: false,
  needsProject: true,
  async execute(input, ctx) {
    const root = requireProjectRoot(ctx);
    const start =
      input.path === undefined ? root : await resolveInside(root, input.path, { mustExist: true });
    if (!(await fs.stat(start)).isDirectory()) {
      throw new ToolError(`"${input.path}" is not a folder; \`path\` must name the folder to search in.`);
    }
    // Glob patterns use `/`; on Windows a `\` would be read as an escape and match nothing.
    const pattern = process.platform === 'win32' ? input.pattern.replace(/\\/g, '/') : input.pattern;
    const files = await listFiles({ root, start, pattern, signal: ctx.signal });
    if (files.length === 0) {
      return {
        content:
          `No files match "${input.pattern}" in ${displayPath(root, start)}. ` +
          '(Files ignored by .gitignore and symbolic links are skipped; to look inside an ignored or ' +
          'symlinked folder pass it as `path`.)',
      };
    }

    const entries: { rel: string; mtime: number }[] = [];
    for (let i = 0; i < files.length; i += STAT_BATCH) {
      ctx.signal.throwIfAborted();
      const batch = files.slice(i, i + STAT_BATCH);
      const stats = await Promise.all(batch.map((file) => fs.lstat(file).catch(() => null)));
      batch.forEach((file, j) => {
        entries.push({ rel: displayPath(root, file), mtime: stats[j]?.mtimeMs ?? 0 });
      });
    }
    // Newest first: what was just changed is usually what matters; ties in path order.
    entries.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));

    const shown = entries.slice(0, MAX_GLOB_RESULTS).map((e) => e.rel);
    if (entries.length <= MAX_GLOB_RESULTS) return { content: shown.join('\n') };
    return {
      content:
        `${shown.join('\n')}\n\n[Showing the ${MAX_GLOB_RESULTS} newest of ${entries.length} files; ` +
        'use a narrower pattern or path.]',
    };
  },
});
