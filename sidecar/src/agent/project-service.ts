import fs from 'node:fs';
import path from 'node:path';
import { badRequest, CairnError } from '../errors';
import type { Project } from '../protocol';
import type { Store } from '../store/store';

/** Opens a project by folder: the path must be an existing directory on this machine. */
export function openProject(store: Store, requested: string): Project {
  if (!path.isAbsolute(requested)) {
    throw badRequest(`The project path must be absolute (got "${requested}").`);
  }
  let real: string;
  try {
    // The native realpath also settles letter case and short names, as the file tools' checks do.
    real = fs.realpathSync.native(requested);
  } catch {
    throw badRequest(`The folder ${requested} does not exist on the machine running Cairn.`);
  }
  if (!fs.statSync(real).isDirectory()) throw badRequest(`${requested} is a file, not a folder.`);
  return store.projects.upsertByPath(real);
}

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
