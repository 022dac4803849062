import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * File operations inside a project folder that never leave it, even while something swaps one of its
 * folders for a link between a check and the act (a revert must not become a way out of the sandbox). On
 * Linux every step holds the parent folder open (opened without following links) and names the entry
 * through `/proc/self/fd`, so no path is resolved twice; elsewhere the parent chain is checked, without
 * following links, immediately before each act.
 */
export class ConfinedFs {
  private readonly procFd = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

  /** `root` is the project's real path. */
  constructor(private readonly root: string) {}

  /** What is at `rel` (the entry itself, links not followed); null when nothing is, or its folder is not real. */
  lstat(rel: string): fs.Stats | null {
    try {
      return this.at(rel, false, (entry) => fs.lstatSync(entry, { throwIfNoEntry: false }) ?? null);
    } catch {
      return null; // A folder on the way is missing, or not a real folder: nothing of the project is there.
    }
  }

  /** Removes the file or link at `rel`. */
  unlink(rel: string): void {
    this.at(rel, false, (entry) => fs.unlinkSync(entry));
  }

  /** Removes the folder at `rel` when it is empty; false when it is not (or is gone). */
  rmdir(rel: string): boolean {
    try {
      this.at(rel, false, (entry) => fs.rmdirSync(entry));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Puts `bytes` (or a link to `linkTarget`) at `rel`, making its folders: written under a new name beside
   * it, then renamed over what is there, so the current content is only replaced once the new is complete.
   */
  write(rel: string, content: { bytes: Buffer; mode: number } | { linkTarget: string }): void {
    this.at(rel, true, (entry) => {
      const temp = path.join(path.dirname(entry), `.cairn-restore-${randomBytes(6).toString('hex')}`);
      try {
        if ('linkTarget' in content) fs.symlinkSync(content.linkTarget, temp);
        else {
          // `wx`: created here, never through a link.
          const fd = fs.openSync(temp, 'wx', content.mode);
          try {
            fs.writeFileSync(fd, content.bytes);
            if (process.platform !== 'win32') fs.fchmodSync(fd, content.mode);
          } finally {
            fs.closeSync(fd);
          }
        }
        fs.renameSync(temp, entry);
      } catch (error) {
        fs.rmSync(temp, { force: true });
        throw error;
      }
    });
  }

  /**
   * Runs `act` on the path that names `rel` through its real parent folder. Throws when a folder on the way
   * is a link or a file (`makeFolders` creates missing ones).
   */
  private at<T>(rel: string, makeFolders: boolean, act: (entry: string) => T): T {
    const parts = rel.split('/');
    const name = parts.pop()!;
    if (!name || parts.some((p) => p === '' || p === '.' || p === '..') || name === '.' || name === '..') {
      throw new Error(`Not a path inside the project: ${rel}`);
    }
    if (!this.procFd) return act(path.join(this.checkedParent(parts, makeFolders), name));
    let fd = fs.openSync(this.root, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    try {
      for (const part of parts) {
        const next = `/proc/self/fd/${fd}/${part}`;
        const flags = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;
        let child: number;
        try {
          child = fs.openSync(next, flags);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !makeFolders)
            throw blocked(rel, part, error);
          fs.mkdirSync(next);
          child = fs.openSync(next, flags);
        }
        fs.closeSync(fd);
        fd = child;
      }
      return act(`/proc/self/fd/${fd}/${name}`);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Without /proc: each folder on the way checked (not followed) right before the act. */
  private checkedParent(parts: string[], makeFolders: boolean): string {
    let dir = this.root;
    for (const part of parts) {
      dir = path.join(dir, part);
      const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (!stat && makeFolders) fs.mkdirSync(dir);
      else if (!stat?.isDirectory()) throw blocked(path.relative(this.root, dir), part, null);
    }
    return dir;
  }
}

function blocked(rel: string, part: string, cause: unknown): Error {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT')
    return Object.assign(new Error(`${rel}: a folder on its way does not exist.`), { code });
  return Object.assign(
    new Error(`${part} on the way to ${rel} is a link or a file now, where a folder was.`),
    {
      code: 'EBLOCKED',
    },
  );
}
