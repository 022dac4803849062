import fs from 'node:fs';
import path from 'node:path';

/**
 * The real path of a file when it resolves (symlinks followed) to somewhere under the folder, else null:
 * a session's files are read only from its own folder, whatever a link planted there points at.
 */
export function realFileInside(file: string, folder: string): string | null {
  const real = realpathOrNull(file);
  const root = realpathOrNull(folder);
  return real && root && real.startsWith(root + path.sep) ? real : null;
}

function realpathOrNull(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
}
