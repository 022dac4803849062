import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeOwnerOnlyDir, writeOwnerOnlyFile } from '../../../config/owner-only-files';
import { ToolError } from '../../tool';
import type { ToolLanguage } from './tool-description';
import { transpileTypeScript } from './typescript-transpiler';

const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);
const TYPESCRIPT = new Set(['.ts', '.mts']);

/** The language of a tool module, from its extension; a ToolError for any other file. */
export function moduleLanguage(file: string, label: string): { language: ToolLanguage; typescript: boolean } {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.py') return { language: 'python', typescript: false };
  if (JAVASCRIPT.has(ext)) return { language: 'javascript', typescript: false };
  if (TYPESCRIPT.has(ext)) return { language: 'javascript', typescript: true };
  throw new ToolError(
    `${label} is not a tool module: LoadTool loads JavaScript (.js, .mjs, .cjs), TypeScript (.ts, .mts) or Python (.py).`,
  );
}

/** What the JavaScript core imports: a URL, fresh for every load, and the file behind it. */
export interface PreparedModule {
  url: string;
  file: string;
}

/**
 * A JavaScript or TypeScript module ready to import. JavaScript is imported where it is; TypeScript is
 * compiled on its own into `scratchDir` (so it can import packages, through a link to the project's
 * node_modules, but not other TypeScript files by relative path). Every load gets a new URL, so the current
 * contents of the file run, never a module cached from an earlier load.
 */
export async function prepareJavaScriptModule(
  file: string,
  typescript: boolean,
  label: string,
  scratchDir: string,
): Promise<PreparedModule> {
  const fresh = (target: string) => ({
    url: `${pathToFileURL(target).href}?load=${randomUUID()}`,
    file: target,
  });
  if (!typescript) return fresh(file);
  const code = await transpileTypeScript(await fs.readFile(file, 'utf8'), file, label);
  // One folder per source file (its node_modules link depends on where it is), one file per content.
  const folder = path.join(scratchDir, 'typescript', digest(file));
  const target = path.join(folder, `${path.parse(file).name}-${digest(code)}.mjs`);
  makeOwnerOnlyDir(folder);
  writeOwnerOnlyFile(target, code);
  await linkNodeModules(path.dirname(file), folder);
  return fresh(target);
}

/**
 * Gives `folder` a node_modules link to the one the source file would use (the nearest above it), so the
 * compiled module resolves the same packages. Without one, package imports fail with Node's own message.
 */
async function linkNodeModules(sourceDir: string, folder: string): Promise<void> {
  const link = path.join(folder, 'node_modules');
  let target: string | null = null;
  for (let dir = sourceDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules');
    if (await isDirectory(candidate)) {
      target = candidate;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  const current = await fs.readlink(link).catch(() => null);
  if (current === target) return;
  await fs.rm(link, { force: true }).catch(() => {});
  // A junction needs no privilege on Windows; elsewhere the type is ignored.
  if (target) await fs.symlink(target, link, 'junction').catch(() => {});
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
