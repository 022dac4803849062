import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Modes of everything Cairn creates in its data directory: its conversations, results and logs are the
 * owner's alone. The umask can only take bits away, so these hold whatever it is; the process umask itself
 * is left alone, since Bash, kernels and MCP servers inherit it and the user's own files keep their modes.
 */
export const OWNER_ONLY_DIR_MODE = 0o700;
export const OWNER_ONLY_FILE_MODE = 0o600;

/** The permission bits of group and other users. */
const OPEN_BITS = 0o077;

/**
 * Creates `dir` and its missing parents owner-only. mkdir's mode applies only to the folders it creates:
 * an existing one keeps its mode (the data directory's own are narrowed at start, see data-dir-permissions).
 */
export function makeOwnerOnlyDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
}

/**
 * Writes `file` (replacing its content), creating it and its folders owner-only. The content goes to a new
 * file beside it (O_EXCL: never through anything already there) renamed over it, so a link planted where
 * the file goes is replaced, not written through: a project's sandbox may write in the results folders
 * the unconfined sidecar writes in. Windows has no such sandbox, and a rename there fails while another
 * process holds the file open, so it writes in place.
 */
export function writeOwnerOnlyFile(file: string, content: string | Uint8Array): void {
  makeOwnerOnlyDir(path.dirname(file));
  if (process.platform === 'win32') {
    fs.writeFileSync(file, content, { mode: OWNER_ONLY_FILE_MODE });
    return;
  }
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temp, content, { mode: OWNER_ONLY_FILE_MODE, flag: 'wx' });
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Creates `file` empty and owner-only when it is missing; an existing file is left as it is. */
export function createOwnerOnlyFile(file: string): void {
  makeOwnerOnlyDir(path.dirname(file));
  fs.closeSync(fs.openSync(file, 'a', OWNER_ONLY_FILE_MODE));
}

/**
 * Takes the group and other bits off `target` (following a symlink) and returns its mode before, or null
 * when it was owner-only already. Does nothing on Windows, where POSIX modes do not say who may read a file.
 */
export function narrowToOwner(target: string, stats?: fs.Stats): number | null {
  if (process.platform === 'win32') return null;
  const mode = (stats ?? fs.statSync(target)).mode & 0o7777;
  if ((mode & OPEN_BITS) === 0) return null;
  fs.chmodSync(target, mode & ~OPEN_BITS);
  return mode;
}
