import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveInside } from '../path-guard';

/**
 * The project-relative, `/`-separated forms of a file tool's path (`.` for the project folder): as written
 * (`..` resolved), and with symlinks followed when that differs, so a link cannot carry a call past a rule.
 * Null when the path is outside the project (or there is no project): no path pattern matches it.
 */
export async function projectRelativePaths(
  projectRoot: string | null,
  requested: string,
): Promise<string[] | null> {
  if (projectRoot === null || requested.trim() === '' || requested.includes('\0')) return null;
  const root = path.resolve(projectRoot);
  const lexical = toRelative(root, path.resolve(root, requested));
  if (lexical === null) return null;
  let real: string | null;
  try {
    const realRoot = await fs.realpath(root);
    real = toRelative(realRoot, await resolveInside(realRoot, requested));
  } catch {
    real = null; // it leads outside the project once links are followed
  }
  if (real === null) return null;
  return real === lexical ? [lexical] : [lexical, real];
}

function toRelative(root: string, absolute: string): string | null {
  const relative = path.relative(root, absolute);
  if (relative === '') return '.';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}
