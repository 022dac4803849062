import fs from 'node:fs';
import path from 'node:path';

/** A folder's real path (links resolved, native case), or the path as given when it cannot be resolved. */
export function realDir(dir: string): string {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}
