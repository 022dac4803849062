import fs from 'node:fs';
import { CairnError } from '../errors';

/** A project's folder resolved with realpath, as tools and kernels use it; a clear error when it is gone. */
export function resolveProjectRoot(folder: string): string {
  try {
    return fs.realpathSync.native(folder);
  } catch {
    throw new CairnError(
      'bad_request',
      `The project folder ${folder} no longer exists. Restore it, or open the project again from its new place.`,
    );
  }
}
