import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The renderer's English string areas (renderer/src/i18n/messages/<area>.ts) and which of them the first
// screen ships, read from the sources: shared by the source check (lazy-strings) and the build check.

export const SRC = fileURLToPath(new URL('../../src', import.meta.url));
export const MESSAGES = path.join(SRC, 'i18n', 'messages');
const CATALOG = path.join(SRC, 'i18n', 'catalog.ts');

/** Every file of the renderer's sources (.ts, .tsx) under `dir`, the string areas' own files left out. */
export function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === MESSAGES ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The files a module imports for their values or side effects (not `import type`), resolved to paths; a
 * package's name stays as written. Imports that run when the module loads, so before any of its code.
 */
export function staticImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    const spec = match[1]!;
    if (!spec.startsWith('.')) {
      found.push(spec);
      continue;
    }
    const base = path.resolve(path.dirname(file), spec);
    const resolved = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(
      (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
    );
    if (!resolved) throw new Error(`${path.relative(SRC, file)} imports ${spec}, which is no file`);
    found.push(resolved);
  }
  return found;
}

/** The area files (messages/<area>.ts, by path) and their English strings, key → text. */
export async function englishAreas(): Promise<Map<string, Record<string, string>>> {
  const areas = new Map<string, Record<string, string>>();
  for (const name of fs
    .readdirSync(MESSAGES)
    .filter((n) => n.endsWith('.ts'))
    .sort()) {
    const file = path.join(MESSAGES, name);
    const exports = Object.values(await import(pathToFileURL(file).href)) as Record<string, string>[];
    if (exports.length !== 1)
      throw new Error(`${name} should export exactly one area, not ${exports.length}`);
    areas.set(file, exports[0]!);
  }
  return areas;
}

/** The areas the first screen ships: those catalog.ts imports (i18n.tsx imports catalog.ts). */
export function firstScreenAreas(): Set<string> {
  return new Set(staticImports(CATALOG).filter((file) => path.dirname(file) === MESSAGES));
}
