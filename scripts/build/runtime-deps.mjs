// Which packages the built app loads from node_modules at run time, and which of them hold native code.
// The rule: everything in package.json's `dependencies`/`optionalDependencies` stays external to the
// bundles and ships in node_modules (electron-builder rebuilds the native ones for Electron); everything
// else is bundled. A package with native code can never be bundled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Names in `dependencies` and `optionalDependencies`: what the packaged app keeps in node_modules. */
export function runtimeDependencies(root = ROOT) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
}

const nativeCache = new Map();

/** Whether the package in `dir` builds or ships a native addon (binding.gyp, or any .node file). */
export function isNativePackage(dir) {
  const cached = nativeCache.get(dir);
  if (cached !== undefined) return cached;
  const found = fs.existsSync(path.join(dir, 'binding.gyp')) || containsNodeFile(dir);
  nativeCache.set(dir, found);
  return found;
}

function containsNodeFile(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.isFile() && entry.name.endsWith('.node')) return true;
    // A nested node_modules holds other packages, judged on their own.
    if (
      entry.isDirectory() &&
      entry.name !== 'node_modules' &&
      containsNodeFile(path.join(dir, entry.name))
    ) {
      return true;
    }
  }
  return false;
}

/** The package folder (…/node_modules/name or …/node_modules/@scope/name) a bundled file comes from, or null. */
export function packageDirOf(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return null;
  const nameParts = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + nameParts).join(path.sep);
}

/** The runtime dependencies that hold native code and are installed here. */
export function nativeRuntimeDependencies(root = ROOT) {
  return runtimeDependencies(root).filter((name) => {
    const dir = path.join(root, 'node_modules', name);
    return fs.existsSync(dir) && isNativePackage(dir);
  });
}
