import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileChange } from '../../protocol';
import { readRegularFile } from '../regular-file';
import { fileChange } from './file-diff';
import { ObjectStore, objectId } from './object-store';
import { type ScanResult, scanProject } from './project-scanner';
import { type RestoreResult, restoreFiles } from './snapshot-restore';
import { type FileEntry, type PathChange, TreeReader } from './snapshot-tree';
import { StatCache } from './stat-cache';

/** How long one answer may spend diffing before the remaining files are listed without their diffs. */
const DIFF_BUDGET_MS = 3000;

/**
 * One project's recorded files, kept in Cairn's data folder (never in the project, never in its `.git`):
 * scans that record the files as trees, the changes between two trees with their diffs, and a restore.
 * Scans and restores of one project run one at a time (sessions share its folder).
 */
export class ProjectSnapshots {
  readonly objects: ObjectStore;
  readonly trees: TreeReader;
  private cache: Promise<StatCache> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Trees scans returned lately, by when: the turn that will name one may not be written yet. */
  private readonly recent = new Map<string, number>();

  constructor(
    readonly dir: string,
    /** Real folders never recorded (Cairn's data directory, should a project hold it). */
    private readonly excluded: string[] = [],
  ) {
    this.objects = new ObjectStore(dir);
    this.trees = new TreeReader(this.objects);
  }

  /** Runs `work` when no other scan or restore of this project runs. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Records the files under `root` as they are now; call inside `exclusive`. */
  async scan(root: string, signal?: AbortSignal): Promise<ScanResult> {
    this.cache ??= StatCache.load(path.join(this.dir, 'stat-cache.json'));
    const result = await scanProject(root, this.objects, await this.cache, signal, this.excluded);
    this.recent.set(result.tree, Date.now());
    return result;
  }

  /** Records the files now, waiting for any other scan or restore of the project. */
  record(root: string, signal?: AbortSignal): Promise<ScanResult> {
    return this.exclusive(() => this.scan(root, signal));
  }

  changes(before: string, after: string): Promise<PathChange[]> {
    return this.trees.diff(before, after);
  }

  /**
   * The changes as the API shows them, with their diffs: up to a budget of diffing time per answer (the
   * rest are "too large to show"), letting other work run between files.
   */
  async fileChanges(changes: PathChange[]): Promise<FileChange[]> {
    const out: FileChange[] = [];
    const started = performance.now();
    for (const change of changes) {
      const withDiff = performance.now() - started < DIFF_BUDGET_MS;
      out.push(await fileChange(this.objects, change, withDiff));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }

  /** Puts back `target`'s files for the given changes (from now to `target`); call inside `exclusive`. */
  restore(root: string, target: string, changes: PathChange[]): Promise<RestoreResult> {
    return restoreFiles(root, { objects: this.objects, trees: this.trees }, target, changes);
  }

  /**
   * Deletes the objects no tree in `live` (nor the stat cache) uses, once they are older than `minAgeMs`:
   * younger ones may belong to a recording whose turn is not written yet.
   */
  collectGarbage(live: string[], minAgeMs = 60 * 60 * 1000): Promise<number> {
    return this.exclusive(async () => {
      this.cache ??= StatCache.load(path.join(this.dir, 'stat-cache.json'));
      const keep = (await this.cache).ids();
      const since = Date.now() - minAgeMs;
      for (const [tree, at] of this.recent) if (at < since) this.recent.delete(tree);
      live = [...live, ...this.recent.keys()];
      const mark = async (tree: string) => {
        if (keep.has(tree)) return;
        keep.add(tree);
        for (const entry of (await this.trees.read(tree)).values()) {
          if (entry.kind === 'dir') await mark(entry.id);
          else if (entry.kind !== 'large') keep.add(entry.id);
        }
      };
      for (const tree of live) await mark(tree);
      return this.objects.sweep((id) => keep.has(id), since);
    });
  }

  /**
   * How a path the last scan did not record (ignored now, or unreadable) stands on disk against `entry`:
   * missing, the same content, a folder, or something else (which restoring `entry` would overwrite). The
   * name must match exactly: on a case-insensitive volume `Readme.md` must not be taken for `README.md`.
   */
  async onDisk(
    root: string,
    rel: string,
    entry: FileEntry,
  ): Promise<'missing' | 'same' | 'folder' | 'different'> {
    const abs = path.join(root, ...rel.split('/'));
    const names = await fsp.readdir(path.dirname(abs)).catch(() => [] as string[]);
    if (!names.includes(path.basename(abs))) return 'missing';
    const stat = await fsp.lstat(abs).catch(() => null);
    if (!stat) return 'missing';
    if (stat.isDirectory()) return 'folder';
    if (!stat.isFile() || entry.kind === 'link' || entry.kind === 'large') return 'different';
    const bytes = await readRegularFile(abs, { inside: root });
    return bytes !== null && objectId(bytes) === entry.id ? 'same' : 'different';
  }
}

/** Every project's snapshots, under `<data>/snapshots/<project id>`. */
export class SnapshotStores {
  private readonly stores = new Map<string, ProjectSnapshots>();

  /** `excluded`: real folders no project's recording includes (the data directory). */
  constructor(
    private readonly baseDir: string,
    private readonly excluded: string[] = [],
  ) {}

  of(projectId: string): ProjectSnapshots {
    let store = this.stores.get(projectId);
    if (!store) {
      store = new ProjectSnapshots(path.join(this.baseDir, projectId), this.excluded);
      this.stores.set(projectId, store);
    }
    return store;
  }

  /** Forgets a deleted project's recordings. */
  async remove(projectId: string): Promise<void> {
    const store = this.stores.get(projectId);
    this.stores.delete(projectId);
    const drop = () => fsp.rm(path.join(this.baseDir, projectId), { recursive: true, force: true });
    await (store ? store.exclusive(drop) : drop());
  }
}
