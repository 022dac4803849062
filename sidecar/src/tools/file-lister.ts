import fs, { type Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type FileSystemAdapter, glob } from 'tinyglobby';
import { GitignoreRules } from './gitignore-rules';
import { isCaseInsensitivePlatform, isPathInside, isSamePath } from './path-guard';
import { ToolError } from './tool';

type ReaddirCallback = (err: NodeJS.ErrnoException | null, entries: Dirent[]) => void;

export interface ListFilesOptions {
  /** The project folder (canonical): `.gitignore` files from here down apply. */
  root: string;
  /** The folder to search (canonical, inside root). */
  start: string;
  /** A glob relative to `start`; `**` crosses folders, `{a,b}` and `[ab]` work. */
  pattern: string;
  /** Globs (relative to `start`) of files to leave out. */
  exclude?: string[];
  signal?: AbortSignal;
}

/**
 * Absolute paths of the files under `start` matching `pattern`. Skips `.git`, whatever `.gitignore` files
 * (the root's and nested ones) exclude, and symbolic links: symlinked files are not listed and symlinked
 * folders (junctions too) are not entered, also when the pattern names one (`link/**`). So every path
 * returned really lies in the real folder of `start`. When `start` itself is ignored (the model asked for
 * it explicitly) only the `.gitignore` files inside it apply.
 */
export async function listFiles(opts: ListFilesOptions): Promise<string[]> {
  assertSafePattern(opts.pattern);
  const rules = await rulesFor(opts.root, opts.start);
  const mayEnter = await folderGuard(opts.start);
  const caseInsensitive = isCaseInsensitivePlatform();

  // tinyglobby matches; our readdir refuses folders reached through a link and prunes ignored entries, so
  // neither is ever walked.
  const readdir = (dir: string, options: unknown, callback?: ReaddirCallback) => {
    const cb = (typeof options === 'function' ? options : callback) as ReaddirCallback;
    const abs = path.resolve(dir);
    mayEnter(abs).then((allowed) => {
      if (!allowed) return cb(null, []);
      fs.readdir(abs, { withFileTypes: true }, (err, entries) => {
        if (err) return cb(err, []);
        // Not left to tinyglobby's options: a link is neither listed nor entered whatever it points at.
        const real = entries.filter((entry) => !entry.isSymbolicLink());
        rules.filterEntries(abs, real).then(
          (kept) => cb(null, kept),
          (error: NodeJS.ErrnoException) => cb(error, []),
        );
      });
    });
  };
  const adapter: FileSystemAdapter = { readdir: readdir as unknown as FileSystemAdapter['readdir'] };

  const found = await glob(opts.pattern, {
    cwd: opts.start,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    caseSensitiveMatch: !caseInsensitive,
    ignore: ['**/.git/**', ...(opts.exclude ?? [])],
    fs: adapter,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  opts.signal?.throwIfAborted();

  const files: string[] = [];
  for (const file of found) {
    const abs = path.resolve(file);
    // Belt and braces: a pattern must never reach outside the folder searched.
    if (isPathInside(opts.start, abs) && !(await rules.ignores(abs, false))) files.push(abs);
  }
  return files;
}

/**
 * Whether the crawl may read a folder: only when its real path is the very folder it names below the real
 * `start`. tinyglobby reads the pattern's literal prefix directly (`link/**` crawls from `start/link`, and
 * the OS follows the link), so the folder listing itself cannot be trusted to have skipped links.
 */
async function folderGuard(start: string): Promise<(dir: string) => Promise<boolean>> {
  const realStart = await fsp.realpath(start);
  return async (dir) => {
    if (!isPathInside(start, dir)) return false;
    let real: string;
    try {
      real = await fsp.realpath(dir);
    } catch {
      return false; // Gone, a link loop or unreadable: nothing to list.
    }
    const expected = path.join(realStart, path.relative(start, dir));
    // Containment is exact (both sides are native real paths); the sameness test folds case where the
    // platform does, so `SRC/**` still lists `src` on a case-insensitive volume.
    return isPathInside(realStart, real, process.platform, false) && isSamePath(expected, real);
  };
}

/** The Gitignore rules for a search of `start`. */
export interface GitignoreFilter {
  /** Whether a path below `start` is excluded by `.git` or a `.gitignore` file. */
  ignores(abs: string, isDir: boolean): Promise<boolean>;
}

/**
 * The rules for searching `start`: the `.gitignore` files from `root` down, or only those inside `start`
 * when `start` itself is ignored (the model asked for it explicitly).
 */
export function gitignoreRules(root: string, start: string): Promise<GitignoreFilter> {
  return rulesFor(root, start);
}

async function rulesFor(root: string, start: string): Promise<GitignoreRules> {
  const caseInsensitive = isCaseInsensitivePlatform();
  const rules = new GitignoreRules(root, caseInsensitive);
  if (start !== root && (await rules.ignores(start, true))) return new GitignoreRules(start, caseInsensitive);
  return rules;
}

/** Refuses patterns that could climb out of the folder searched. */
function assertSafePattern(pattern: string): void {
  if (pattern.trim() === '') throw new ToolError('The glob pattern is empty.');
  if (path.posix.isAbsolute(pattern) || path.win32.isAbsolute(pattern)) {
    throw new ToolError('The glob pattern must be relative; use `path` to pick the folder to search in.');
  }
  if (/(^|[/\\{,])\.\.($|[/\\},])/.test(pattern)) {
    throw new ToolError(
      'The glob pattern must not contain "..": use `path` to pick the folder to search in.',
    );
  }
}
