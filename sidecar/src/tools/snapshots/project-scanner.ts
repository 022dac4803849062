import fs, { type Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { GitignoreRules } from '../gitignore-rules';
import { isCaseInsensitivePlatform, isSamePath } from '../path-guard';
import { readRegularFile } from '../regular-file';
import type { ObjectStore } from './object-store';
import { serializeTree, type TreeEntry } from './snapshot-tree';
import type { StatCache } from './stat-cache';

/** Files larger than this are recorded by size and time only: no diff, and a revert cannot restore them. */
export const MAX_KEPT_BYTES = 10 * 1024 * 1024;
/** A `.gitignore` larger than this is not a list of patterns; it is left unread. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;
/** A project with more files than this is not recorded at all (each turn would read too much). */
export const MAX_FILES = 100_000;

/**
 * Folders never recorded, ignored or not: dependencies and caches that tools rebuild, often with
 * hundreds of thousands of files. `.git` is never read either (the project's own repository is its own).
 */
export const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.gradle',
  '.next',
  '.nuxt',
  '.turbo',
  '.parcel-cache',
]);

/** The project has more files than Cairn records. */
export class TooManyFilesError extends Error {}

/** A tiny limiter: at most `n` of the given tasks run at once. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  // A queue read from `head` on: a scan can queue tens of thousands, and shift() on that would be quadratic.
  let waiting: (() => void)[] = [];
  let head = 0;
  const next = () => {
    if (head >= waiting.length) return undefined;
    const wake = waiting[head++];
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    return wake;
  };
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so no new caller slips in between.
      const wake = next();
      if (wake) wake();
      else active--;
    }
  };
}

/**
 * lstat, or null when the path cannot be stat'ed. Synchronous while the file system answers in microseconds
 * (a local disk: 10,000 files in ~15 ms, against ~120 ms through the thread pool, where each call waits for a
 * thread); once the calls average over 50 µs past a 20 ms allowance (a network mount; a scheduler hiccup does
 * not count), the rest of the scan goes through the pool so the event loop is not held.
 */
export function statter(
  io: <T>(task: () => Promise<T>) => Promise<T>,
  budget = { allowanceMs: 20, perCallMs: 0.05, sliceMs: 10 },
): (abs: string) => Promise<fs.Stats | null> {
  let syncMs = 0;
  let calls = 0;
  // Synchronous calls give the event loop a turn every `sliceMs`: a folder of 100,000 files is not one block.
  let slice = 0;
  let pause: Promise<void> | null = null;
  return async (abs) => {
    if (slice > budget.sliceMs) {
      pause ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pause = null;
        slice = 0;
      });
      await pause;
    }
    if (syncMs > budget.allowanceMs + budget.perCallMs * calls)
      return io(() => fsp.lstat(abs)).catch(() => null);
    const started = performance.now();
    try {
      return fs.lstatSync(abs, { throwIfNoEntry: false }) ?? null;
    } catch {
      return null;
    } finally {
      const spent = performance.now() - started;
      syncMs += spent;
      slice += spent;
      calls++;
    }
  };
}

export interface ScanResult {
  tree: string;
  files: number;
}

/**
 * Records the project's files as trees in the object store: every folder but `.git`, the skipped ones and
 * what `.gitignore` files exclude; links as links (never followed); files read only when their stat changed.
 */
export async function scanProject(
  root: string,
  objects: ObjectStore,
  cache: StatCache,
  signal?: AbortSignal,
  /** Real folders never recorded wherever they are: Cairn's own data directory, if the project holds it. */
  excluded: string[] = [],
): Promise<ScanResult> {
  // Only folders whose listing has a `.gitignore` are asked for one: no failed open per folder per scan.
  const withIgnoreFile = new Set<string>();
  const rules = new GitignoreRules(root, isCaseInsensitivePlatform(), (dir) =>
    withIgnoreFile.has(dir)
      ? readRegularFile(path.join(dir, '.gitignore'), { maxBytes: MAX_GITIGNORE_BYTES, inside: root }).then(
          (bytes) => bytes?.toString('utf8') ?? null,
        )
      : Promise.resolve(null),
  );
  const io = limiter(32);
  const lstat = statter(io);
  let files = 0;
  let entries = 0;

  const entryOf = async (absDir: string, rel: string, d: Dirent): Promise<TreeEntry | null> => {
    const abs = path.join(absDir, d.name);
    if (d.isDirectory()) {
      // Folders count too: a tree of empty folders costs a walk like one of files.
      if (++entries > MAX_FILES) throw new TooManyFilesError();
      const id = await scanDir(abs, rel);
      return id === null ? null : { name: d.name, kind: 'dir', id, size: 0 };
    }
    if (d.isSymbolicLink()) {
      const target = await io(() => fsp.readlink(abs)).catch(() => null);
      if (target === null) return null;
      files++;
      if (++entries > MAX_FILES) throw new TooManyFilesError();
      return { name: d.name, kind: 'link', id: await objects.put(Buffer.from(target)), size: target.length };
    }
    if (!d.isFile()) return null; // Sockets, pipes and devices are not content.
    files++;
    if (++entries > MAX_FILES) throw new TooManyFilesError();
    const stat = await lstat(abs);
    if (!stat?.isFile()) return null;
    const kind = process.platform !== 'win32' && (stat.mode & 0o100) !== 0 ? 'exec' : 'file';
    if (stat.size > MAX_KEPT_BYTES) {
      return { name: d.name, kind: 'large', id: `${stat.size}:${stat.mtimeMs}`, size: stat.size };
    }
    const known = cache.lookup(rel, stat);
    if (known !== null) return { name: d.name, kind, id: known, size: stat.size };
    const readAt = Date.now();
    const bytes = await io(() => readRegularFile(abs, { inside: root }));
    if (bytes === null) return null; // Unreadable (or gone): not recorded.
    const id = await objects.put(bytes);
    cache.remember(rel, stat, id, readAt);
    return { name: d.name, kind, id, size: bytes.length };
  };

  async function scanDir(absDir: string, relDir: string): Promise<string | null> {
    signal?.throwIfAborted();
    if (excluded.some((dir) => isSamePath(dir, absDir))) return null;
    let dirents: Dirent[];
    try {
      dirents = await io(() => fsp.readdir(absDir, { withFileTypes: true }));
    } catch {
      return null; // Unreadable folders are left out.
    }
    if (dirents.some((d) => d.name === '.gitignore' && d.isFile())) withIgnoreFile.add(absDir);
    const wanted = dirents.filter((d) => !(d.isDirectory() && SKIPPED_FOLDERS.has(d.name)));
    const kept = await rules.filterEntries(absDir, wanted);
    const entries = await Promise.all(
      kept.map((d) => entryOf(absDir, relDir ? `${relDir}/${d.name}` : d.name, d)),
    );
    return objects.put(serializeTree(entries.filter((e): e is TreeEntry => e !== null)));
  }

  try {
    const tree = await scanDir(root, '');
    if (tree === null) throw new Error(`The project folder ${root} cannot be read.`);
    await cache.commit();
    return { tree, files };
  } catch (error) {
    cache.abandon();
    throw error;
  }
}
