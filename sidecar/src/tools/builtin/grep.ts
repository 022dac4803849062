import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { findOnPath } from '../bash-resolver';
import { childEnv } from '../child-env';
import { gitignoreRules, listFiles } from '../file-lister';
import { assertRegularFile, displayPath, requireProjectRoot, resolveInside } from '../path-guard';
import { runProcess } from '../process-runner';
import { defineTool, type ToolContext, ToolError, type ToolResult } from '../tool';

export const MAX_GREP_MATCHES = 500;
const MAX_LINE_CHARS = 500;
const LONG_LINE_NOTE = ' [... omitted end of long line]';
/** The built-in search skips larger files (ripgrep has no such limit). */
const FALLBACK_MAX_FILE_BYTES = 50_000_000;
const RG_TIMEOUT_MS = 120_000;

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('The regular expression to search for (ripgrep syntax), e.g. `fn\\s+main`.'),
  path: z
    .string()
    .optional()
    .describe(
      'The file or folder to search: relative to the project folder, or absolute (default: the project).',
    ),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. `*.ts` or `src/**/*.py`; `!*.md` excludes.'),
});

type GrepInput = z.infer<typeof inputSchema>;

export const grepTool = defineTool({
  name: 'Grep',
  description:
    'Searches file contents with a regular expression and returns matching lines as `path:line:text`, ' +
    `paths relative to the project, sorted by path, at most ${MAX_GREP_MATCHES}. Skips .git, files ignored by ` +
    '.gitignore, binary files and symbolic links (symlinked files and folders are not followed; pass a ' +
    'linked file or folder inside the project as `path`); dotfiles are searched. Case-sensitive unless the ' +
    'pattern starts with `(?i)`.',
  inputSchema,
  sideEffects: false,
  needsProject: true,
  execute: (input, ctx) => runGrep(input, ctx, defaultRipgrep()),
});

let cachedRipgrep: string | null | undefined;

/** ripgrep on PATH (looked up once), or null to use the built-in search. */
export function defaultRipgrep(): string | null {
  if (cachedRipgrep === undefined) {
    const found = findOnPath('rg');
    // On Windows only a real executable can be spawned without a shell; a .cmd shim cannot.
    cachedRipgrep = found && process.platform === 'win32' && !/\.(exe|com)$/i.test(found) ? null : found;
  }
  return cachedRipgrep;
}

/** Grep with an explicit ripgrep (`rgPath`), or the built-in search when it is null. */
export async function runGrep(
  input: GrepInput,
  ctx: ToolContext,
  rgPath: string | null,
): Promise<ToolResult> {
  const root = requireProjectRoot(ctx);
  // Large tool results are saved in the session's folder; the model is told to search them with Grep.
  const target =
    input.path === undefined
      ? root
      : await resolveInside(root, input.path, {
          mustExist: true,
          extraRoots: [ctx.sessionResultsDir, ...(ctx.inheritedResultsDirs ?? [])],
        });
  const isDir = (await fs.stat(target)).isDirectory();
  if (!isDir) await assertRegularFile(target, { label: input.path ?? target });

  // Patterns for files use `/`; on Windows a `\` in them would be read as an escape.
  const normalized =
    process.platform === 'win32' && input.glob ? { ...input, glob: input.glob.replace(/\\/g, '/') } : input;
  const found = rgPath
    ? await searchWithRipgrep(rgPath, normalized, root, target, isDir, ctx.signal)
    : await searchBuiltIn(normalized, root, target, isDir, ctx.signal);
  if (found.lines.length === 0) {
    return { content: `No matches for /${input.pattern}/ in ${displayPath(root, target)}.` };
  }
  const notes: string[] = [];
  if (found.more) {
    notes.push(`[Showing the first ${MAX_GREP_MATCHES} matches; narrow the pattern, path or glob.]`);
  }
  if (found.warning) notes.push(`[Some files could not be searched: ${found.warning}]`);
  const body = found.lines.join('\n');
  const content = notes.length > 0 ? `${body}\n\n${notes.join('\n')}` : body;
  // The files and how many lines each has, in order: the text alone cannot always say where a path ends
  // (`logs/10:30:00.log:5:x`), so the card splits each line at the path given here.
  return { content, meta: { files: fileCounts(found.paths.slice(0, found.lines.length)) } };
}

function fileCounts(paths: string[]): { path: string; count: number }[] {
  const files: { path: string; count: number }[] = [];
  for (const file of paths) {
    const last = files.at(-1);
    if (last && last.path === file) last.count++;
    else files.push({ path: file, count: 1 });
  }
  return files;
}

interface Found {
  lines: string[];
  /** The path of each line's file, as the line begins with it. */
  paths: string[];
  more: boolean;
  warning?: string;
}

async function searchWithRipgrep(
  rgPath: string,
  input: GrepInput,
  root: string,
  target: string,
  isDir: boolean,
  signal: AbortSignal,
): Promise<Found> {
  const rel = path.relative(root, target).split(path.sep).join('/') || '.';
  const args = [
    '--line-number',
    '--no-heading',
    '--with-filename',
    // A NUL after the path, so paths holding ':' parse unambiguously.
    '--null',
    '--color',
    'never',
    '--hidden',
    // Honour .gitignore files even when the project is not a git repository, like the built-in search.
    '--no-require-git',
    '--glob',
    '!.git',
    '--max-columns',
    String(MAX_LINE_CHARS),
    '--max-columns-preview',
    '--sort',
    'path',
    '--path-separator',
    '/',
    ...(input.glob ? ['--glob', input.glob] : []),
    '-e',
    input.pattern,
    '--',
    rel,
  ];
  // Stop ripgrep once there are more matches than will be shown.
  const enough = new AbortController();
  let newlines = 0;
  let result: Awaited<ReturnType<typeof runProcess>>;
  try {
    result = await runProcess({
      file: rgPath,
      args,
      cwd: root,
      env: childEnv(),
      signal: AbortSignal.any([signal, enough.signal]),
      timeoutMs: RG_TIMEOUT_MS,
      onOutput: (stream, text) => {
        if (stream !== 'stdout') return;
        for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) newlines++;
        if (newlines > MAX_GREP_MATCHES) enough.abort();
      },
    });
  } catch (err) {
    throw new ToolError(
      `Could not start ripgrep (${rgPath}): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  signal.throwIfAborted();
  if (result.timedOut) {
    throw new ToolError(`The search timed out after ${RG_TIMEOUT_MS / 1000} s; narrow it.`);
  }

  const stopped = enough.signal.aborted;
  const raw = result.stdout.split('\n');
  // The last piece is empty, or a line cut off by an early stop.
  raw.pop();
  // ripgrep lets a --glob match override .gitignore; drop such files so both searches agree.
  const rules = isDir ? await gitignoreRules(root, target) : null;
  const lines: string[] = [];
  const paths: string[] = [];
  for (const line of raw) {
    const nul = line.indexOf('\0');
    if (nul === -1) continue;
    const file = line.slice(0, nul).replace(/^\.\//, '');
    if (rules && (await rules.ignores(path.resolve(root, file), false))) continue;
    // CRLF files: ripgrep keeps the \r; the built-in search drops it. Match it.
    lines.push(`${file}:${line.slice(nul + 1).replace(/\r$/, '')}`);
    paths.push(file);
  }
  const base = {
    lines: lines.slice(0, MAX_GREP_MATCHES),
    paths: paths.slice(0, MAX_GREP_MATCHES),
    more: stopped || lines.length > MAX_GREP_MATCHES,
  };
  if (stopped || result.exitCode === 0 || result.exitCode === 1) return base;
  const stderr = result.stderr.trim();
  if (lines.length === 0) throw new ToolError(`ripgrep failed: ${stderr || `exit code ${result.exitCode}`}`);
  return { ...base, warning: stderr.split('\n')[0] ?? '' };
}

async function searchBuiltIn(
  input: GrepInput,
  root: string,
  target: string,
  isDir: boolean,
  signal: AbortSignal,
): Promise<Found> {
  const regex = compileRegex(input.pattern);
  let files = [target];
  if (isDir) {
    const glob = input.glob?.trim();
    const negated = glob?.startsWith('!') ?? false;
    const body = negated ? glob!.slice(1) : glob;
    // Like ripgrep, a glob without a slash matches the file name in any folder.
    const anywhere = body && !body.includes('/') ? `**/${body}` : body;
    files = await listFiles({
      root,
      start: target,
      pattern: anywhere && !negated ? anywhere : '**/*',
      ...(anywhere && negated ? { exclude: [anywhere] } : {}),
      signal,
    });
  }
  const rels = files.map((file) => ({ file, rel: displayPath(root, file) }));
  rels.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));

  const lines: string[] = [];
  const paths: string[] = [];
  for (const { file, rel } of rels) {
    signal.throwIfAborted();
    const stats = await fs.lstat(file).catch(() => null);
    // Symlinks are not followed (their target may be outside the project); FIFOs would block.
    if (!stats?.isFile() || stats.size > FALLBACK_MAX_FILE_BYTES) continue;
    const buffer = await fs.readFile(file).catch(() => null);
    if (!buffer || buffer.subarray(0, 8192).includes(0)) continue;
    const text = buffer.toString('utf8').split('\n');
    for (let i = 0; i < text.length; i++) {
      let line = text[i]!;
      if (i === text.length - 1 && line === '') break; // After the final newline: not a line.
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (!regex.test(line)) continue;
      if (lines.length === MAX_GREP_MATCHES) return { lines, paths, more: true };
      const shown = line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + LONG_LINE_NOTE : line;
      lines.push(`${rel}:${i + 1}:${shown}`);
      paths.push(rel);
    }
  }
  return { lines, paths, more: false };
}

/** A JS RegExp for a ripgrep-style pattern; a leading `(?i)` (which JS lacks) becomes the `i` flag. */
function compileRegex(pattern: string): RegExp {
  const insensitive = pattern.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? 'i' : '');
  } catch (err) {
    throw new ToolError(`Invalid regular expression: ${err instanceof Error ? err.message : String(err)}`);
  }
}
