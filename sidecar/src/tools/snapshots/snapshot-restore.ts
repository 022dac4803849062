import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileNotRestored } from '../../protocol';
import { GitignoreRules } from '../gitignore-rules';
import { isCaseInsensitivePlatform, isPathInside } from '../path-guard';
import type { ObjectStore } from './object-store';
import { MAX_KEPT_BYTES, SKIPPED_FOLDERS } from './project-scanner';
import type { PathChange, TreeReader } from './snapshot-tree';

export interface RestoreResult {
  restored: string[];
  notRestored: FileNotRestored[];
}

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
  const realRoot = await fsp.realpath(root);
  const caseInsensitive = isCaseInsensitivePlatform();
  const targetRules = new GitignoreRules(root, caseInsensitive, async (dir) => {
    const rel = path.relative(root, dir).split(path.sep).join('/');
    const entry = await deps.trees.file(target, rel ? `${rel}/.gitignore` : '.gitignore');
    return entry && entry.kind !== 'large' ? (await deps.objects.get(entry.id)).toString('utf8') : null;
  });
  const restored: string[] = [];
  const notRestored: FileNotRestored[] = [];

  const removals = changes.filter((c) => c.after === null).sort((a, b) => b.path.length - a.path.length);
  const emptied = new Set<string>();
  for (const { path: rel } of removals) {
    const abs = absOf(root, rel);
    const untracked =
      rel.split('/').some((part) => SKIPPED_FOLDERS.has(part)) || (await targetRules.ignores(abs, false));
    if (untracked) continue;
    try {
      const stat = await fsp.lstat(abs);
      if (stat.isDirectory()) {
        notRestored.push({ path: rel, reason: 'A folder now has this name; it was left as it is.' });
        continue;
      }
      await fsp.unlink(abs);
      restored.push(rel);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        notRestored.push({ path: rel, reason: `Could not remove it: ${(error as Error).message}` });
        continue;
      }
      restored.push(rel);
    }
    for (let dir = path.posix.dirname(rel); dir !== '.'; dir = path.posix.dirname(dir)) emptied.add(dir);
  }
  // Folders the removed files leave empty go too, deepest first (a folder with anything left in it stays).
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
    await fsp.rmdir(absOf(root, dir)).catch(() => undefined);
  }

  const writes = changes.filter((c) => c.after !== null).sort((a, b) => a.path.localeCompare(b.path));
  for (const { path: rel, after } of writes) {
    if (!after) continue;
    if (after.kind === 'large') {
      notRestored.push({
        path: rel,
        reason: `It is larger than ${MAX_KEPT_BYTES / 1024 / 1024} MB, so its content was not kept.`,
      });
      continue;
    }
    const abs = absOf(root, rel);
    const blocked = await prepareParents(root, realRoot, rel);
    if (blocked) {
      notRestored.push({ path: rel, reason: blocked });
      continue;
    }
    try {
      const existing = await fsp.lstat(abs).catch(() => null);
      if (existing?.isDirectory()) {
        await fsp.rmdir(abs).catch(() => undefined);
        if (await fsp.lstat(abs).catch(() => null)) {
          notRestored.push({
            path: rel,
            reason: 'A folder with files in it now has this name; it was left as it is.',
          });
          continue;
        }
      } else if (existing) await fsp.unlink(abs);
      const bytes = await deps.objects.get(after.id);
      if (after.kind === 'link') await fsp.symlink(bytes.toString('utf8'), abs);
      else
        await writeNew(abs, bytes, modeFor(after.kind === 'exec', existing?.isFile() ? existing.mode : null));
      restored.push(rel);
    } catch (error) {
      notRestored.push({ path: rel, reason: `Could not write it: ${(error as Error).message}` });
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

/** Creates the file (`wx`: never through a link someone put there meanwhile) with exactly this mode. */
async function writeNew(abs: string, bytes: Buffer, mode: number): Promise<void> {
  const handle = await fsp.open(abs, 'wx', mode);
  try {
    await handle.writeFile(bytes);
    // The umask narrowed the mode at creation; the handle is the file just made, so no link is followed.
    if (process.platform !== 'win32') await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

/** Makes the folders above `rel` (real folders inside the project); says why not when something is in the way. */
async function prepareParents(root: string, realRoot: string, rel: string): Promise<string | null> {
  const parts = rel.split('/').slice(0, -1);
  let dir = root;
  for (const part of parts) {
    dir = path.join(dir, part);
    const stat = await fsp.lstat(dir).catch(() => null);
    if (!stat) {
      try {
        await fsp.mkdir(dir);
      } catch (error) {
        return `Could not make its folder: ${(error as Error).message}`;
      }
    } else if (!stat.isDirectory()) {
      return `${path.relative(root, dir)} is a ${stat.isSymbolicLink() ? 'link' : 'file'} now, where a folder was.`;
    }
  }
  const real = await fsp.realpath(dir).catch(() => null);
  return real && isPathInside(realRoot, real) ? null : 'Its folder is not inside the project.';
}
