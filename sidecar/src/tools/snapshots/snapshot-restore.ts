import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileNotRestored } from '../../protocol';
import { GitignoreRules } from '../gitignore-rules';
import { isCaseInsensitivePlatform } from '../path-guard';
import { ConfinedFs } from './confined-fs';
import type { ObjectStore } from './object-store';
import { MAX_KEPT_BYTES, SKIPPED_FOLDERS } from './project-scanner';
import type { PathChange, TreeReader } from './snapshot-tree';

export interface RestoreResult {
  restored: string[];
  notRestored: FileNotRestored[];
}

const LARGE_KEPT = `It is larger than ${MAX_KEPT_BYTES / 1024 / 1024} MB and Cairn keeps no copy of it, so it was left as it is rather than lost for good.`;

const absOf = (root: string, rel: string) => path.join(root, ...rel.split('/'));

/**
 * Puts the project's files back as `target` recorded them, given the changes from the files as they are now
 * to `target`. Files to remove go first (and folders they leave empty), then files are written. Nothing is
 * written through a link or outside `root`: a link or file where a folder should be blocks that path. A
 * file absent from `target` that `target`'s own `.gitignore` files exclude (or a skipped folder holds) was
 * simply not recorded, so it is left alone.
 */
export async function restoreFiles(
  root: string,
  deps: { objects: ObjectStore; trees: TreeReader },
  target: string,
  changes: PathChange[],
): Promise<RestoreResult> {
  const caseInsensitive = isCaseInsensitivePlatform();
  const targetRules = new GitignoreRules(root, caseInsensitive, async (dir) => {
    const rel = path.relative(root, dir).split(path.sep).join('/');
    const entry = await deps.trees.file(target, rel ? `${rel}/.gitignore` : '.gitignore');
    return entry && entry.kind !== 'large' ? (await deps.objects.get(entry.id)).toString('utf8') : null;
  });
  const restored: string[] = [];
  const notRestored: FileNotRestored[] = [];
  const files = new ConfinedFs(await fsp.realpath(root));
  const failed = (rel: string, what: string, error: unknown) =>
    notRestored.push({ path: rel, reason: `Could not ${what} it: ${(error as Error).message}` });

  const removals = changes.filter((c) => c.after === null).sort((a, b) => b.path.length - a.path.length);
  const emptied = new Set<string>();
  for (const { path: rel, before } of removals) {
    const abs = absOf(root, rel);
    const untracked =
      rel.split('/').some((part) => SKIPPED_FOLDERS.has(part)) || (await targetRules.ignores(abs, false));
    if (untracked) continue;
    if (before?.kind === 'large') {
      notRestored.push({ path: rel, reason: LARGE_KEPT });
      continue;
    }
    const stat = files.lstat(rel);
    if (stat?.isDirectory()) {
      notRestored.push({ path: rel, reason: 'A folder now has this name; it was left as it is.' });
      continue;
    }
    try {
      if (stat) files.unlink(rel);
      restored.push(rel);
    } catch (error) {
      failed(rel, 'remove', error);
      continue;
    }
    for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) emptied.add(dir);
  }
  // Folders the removed files leave empty go too, deepest first (a folder with anything left in it stays).
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) files.rmdir(dir);

  const writes = changes.filter((c) => c.after !== null).sort((a, b) => a.path.localeCompare(b.path));
  for (const { path: rel, before, after } of writes) {
    if (!after) continue;
    if (after.kind === 'large') {
      notRestored.push({
        path: rel,
        reason: `It is larger than ${MAX_KEPT_BYTES / 1024 / 1024} MB, so its content was not kept.`,
      });
      continue;
    }
    if (before?.kind === 'large') {
      notRestored.push({ path: rel, reason: LARGE_KEPT });
      continue;
    }
    try {
      // Read first: the current file is only replaced once the content that replaces it is at hand.
      const bytes = await deps.objects.get(after.id);
      const existing = files.lstat(rel);
      if (existing?.isDirectory() && !files.rmdir(rel)) {
        notRestored.push({
          path: rel,
          reason: 'A folder with files in it now has this name; it was left as it is.',
        });
        continue;
      }
      files.write(
        rel,
        after.kind === 'link'
          ? { linkTarget: bytes.toString('utf8') }
          : { bytes, mode: modeFor(after.kind === 'exec', existing?.isFile() ? existing.mode : null) },
      );
      restored.push(rel);
    } catch (error) {
      failed(rel, 'write', error);
    }
  }
  return { restored: [...new Set(restored)].sort(), notRestored };
}

/**
 * The mode a restored file gets: the one the file has now (a 0600 key stays private) with the executable
 * bits as recorded, or the usual 0644/0755 for a file that is not there.
 */
function modeFor(exec: boolean, current: number | null): number {
  if (current === null) return exec ? 0o755 : 0o644;
  const mode = current & 0o777;
  if (!exec) return mode & ~0o111;
  return mode | 0o100 | ((mode & 0o040) >> 2) | ((mode & 0o004) >> 2);
}
