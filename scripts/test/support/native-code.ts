// Which installed packages hold native code: the test's own judgement, independent of the build scripts'.
import fs from 'node:fs';
import path from 'node:path';

/** A package builds a native addon (binding.gyp) or ships one (a .node file outside nested node_modules). */
export function hasNativeCode(dir: string): boolean {
  if (fs.existsSync(path.join(dir, 'binding.gyp'))) return true;
  const walk = (current: string): boolean =>
    fs.readdirSync(current, { withFileTypes: true }).some((entry) => {
      if (entry.isFile()) return entry.name.endsWith('.node');
      return entry.isDirectory() && entry.name !== 'node_modules' && walk(path.join(current, entry.name));
    });
  return walk(dir);
}

/** `node_modules/@scope/name/lib/x.js` → `node_modules/@scope/name` (the innermost package), else null. */
export function packageDirOf(file: string): string | null {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return null;
  return parts.slice(0, at + (parts[at + 1]!.startsWith('@') ? 3 : 2)).join('/');
}
