import fs from 'node:fs';
import path from 'node:path';
import { badRequest } from '../errors';
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
