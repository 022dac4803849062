import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { isPathInside } from './path-guard';

/** Never waits on a pipe, never follows a link put where the file was listed. */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);
const PROC_FD = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

/**
 * A regular file's bytes; null when it is unreadable, gone, not a regular file (a pipe, a device, a link),
 * larger than `maxBytes`, or (on Linux, where the open file's real path can be read) not inside `inside`:
 * a folder swapped for a link on the way is caught after the open, not before it.
 */
export async function readRegularFile(
  abs: string,
  options: { maxBytes?: number; inside?: string } = {},
): Promise<Buffer | null> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(abs, OPEN_FLAGS);
    const stat = await handle.stat();
    if (!stat.isFile() || (options.maxBytes !== undefined && stat.size > options.maxBytes)) return null;
    if (options.inside && PROC_FD) {
      const real = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
      if (!isPathInside(options.inside, real)) return null;
    }
    return await handle.readFile();
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
