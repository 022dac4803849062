import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type ToolContext, ToolError } from './tool';

/** Symlink hops allowed while resolving one path; more means a loop. */
const MAX_LINK_HOPS = 40;

/** Windows maps these names to devices in every folder (`NUL`, `CON.txt`, `com1`, ...). */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*|:.*)?$/i;

export interface ResolveInsideOptions {
  /** Other folders the path may lie in (e.g. the session's results folder). */
  extraRoots?: string[];
  /** Throw a ToolError when the path does not exist. */
  mustExist?: boolean;
}

/** The project folder of a file tool's context, or a ToolError when the conversation has none. */
export function requireProjectRoot(ctx: ToolContext): string {
  if (ctx.projectRoot === null) {
    throw new ToolError('This tool needs a project folder, and this conversation has none.');
  }
  return ctx.projectRoot;
}

/** File systems on these platforms are usually case-insensitive, so containment is compared that way. */
export function isCaseInsensitivePlatform(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/**
 * Whether `child` is `parent` or lies inside it. Both must be absolute and normalized. A sibling sharing a
 * prefix (`/p/proj-evil` vs `/p/proj`) is outside.
 */
export function isPathInside(
  parent: string,
  child: string,
  platform: NodeJS.Platform = process.platform,
  fold: boolean = isCaseInsensitivePlatform(platform),
): boolean {
  const { rel, p } = relativePath(parent, child, platform, fold);
  if (rel === '') return true;
  // On Windows a path on another drive comes back absolute.
  return rel !== '..' && !rel.startsWith(`..${p.sep}`) && !p.isAbsolute(rel);
}

/** Whether `a` and `b` name the same path (absolute, normalized), folding case as `isPathInside` does. */
export function isSamePath(
  a: string,
  b: string,
  platform: NodeJS.Platform = process.platform,
  fold: boolean = isCaseInsensitivePlatform(platform),
): boolean {
  return relativePath(a, b, platform, fold).rel === '';
}

function relativePath(from: string, to: string, platform: NodeJS.Platform, fold: boolean) {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return { rel: p.relative(fold ? from.toLowerCase() : from, fold ? to.toLowerCase() : to), p };
}

export function isWindowsDeviceName(name: string): boolean {
  return WINDOWS_DEVICE_NAME.test(name.replace(/[ .]+$/, ''));
}

/**
 * Resolves `requested` (relative to `root`, or absolute) to a canonical absolute path: `..` removed, every
 * symlink resolved (also dangling ones, so a link cannot point outside unseen) and a not-yet-existing tail
 * appended to the real path of its longest existing ancestor. Throws a ToolError unless the result lies
 * inside `root` or one of `extraRoots`. Callers must use the returned path, not the requested one.
 */
export async function resolveInside(
  root: string,
  requested: string,
  opts: ResolveInsideOptions = {},
): Promise<string> {
  if (requested.trim() === '') throw new ToolError('The path is empty.');
  if (requested.includes('\0')) throw new ToolError('The path contains a NUL character.');
  const realRoot = await canonicalize(path.resolve(root));
  const extraRoots = await Promise.all((opts.extraRoots ?? []).map((r) => canonicalize(path.resolve(r))));
  const resolved = await canonicalize(path.resolve(realRoot, requested));

  // Both sides went through the native realpath, which spells existing folders exactly as the file
  // system does, so the comparison is exact: folding case would let `/v/proj` pass for `/v/Proj` on a
  // case-sensitive volume of a platform that is usually case-insensitive.
  if (![realRoot, ...extraRoots].some((r) => isPathInside(r, resolved, process.platform, false))) {
    const others = extraRoots.length > 0 ? ' or the other folders this tool may use' : '';
    throw new ToolError(
      `The path "${requested}" is outside the project folder (${realRoot})${others}; ` +
        'only files inside the project can be used.',
    );
  }
  if (process.platform === 'win32') {
    const name = path.basename(resolved);
    if (isWindowsDeviceName(name)) throw new ToolError(`"${requested}" names a Windows device, not a file.`);
  }
  if (opts.mustExist) {
    try {
      await fs.lstat(resolved);
    } catch (err) {
      if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') {
        throw new ToolError(`"${requested}" does not exist.`);
      }
      throw err;
    }
  }
  return resolved;
}

export interface AssertRegularFileOptions {
  /** Return null instead of throwing when nothing exists at the path (Write creating a file). */
  allowMissing?: boolean;
  /** How to name the file in messages; defaults to the path. */
  label?: string;
}

/**
 * Refuses anything but a regular file: folders, FIFOs and sockets (opening them can block forever) and
 * character/block devices. Returns the file's stats, or null when missing and `allowMissing` is set.
 */
export async function assertRegularFile(
  file: string,
  opts: AssertRegularFileOptions = {},
): Promise<Stats | null> {
  const label = opts.label ?? file;
  let stats: Stats;
  try {
    stats = await fs.stat(file);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      if (opts.allowMissing) return null;
      throw new ToolError(`"${label}" does not exist.`);
    }
    throw err;
  }
  if (stats.isFile()) return stats;
  if (stats.isDirectory()) {
    throw new ToolError(`"${label}" is a folder, not a file (use Glob to list its files).`);
  }
  if (stats.isFIFO()) {
    throw new ToolError(`"${label}" is a named pipe (FIFO), not a regular file; refusing it.`);
  }
  if (stats.isSocket()) throw new ToolError(`"${label}" is a socket, not a regular file; refusing it.`);
  if (stats.isCharacterDevice() || stats.isBlockDevice()) {
    throw new ToolError(`"${label}" is a device, not a regular file; refusing it.`);
  }
  throw new ToolError(`"${label}" is not a regular file; refusing it.`);
}

/** `abs` as a project-relative path with `/` separators when inside the root, else unchanged (for messages). */
export function displayPath(root: string, abs: string): string {
  if (!isPathInside(root, abs)) return abs;
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

async function canonicalize(abs: string, hops = 0): Promise<string> {
  try {
    return await fs.realpath(abs);
  } catch (err) {
    if (errorCode(err) === 'ELOOP') throw new ToolError(`"${abs}" has a symbolic link loop.`);
  }
  // The path does not fully exist (or cannot be read): resolve its parent and append the last part.
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  const realParent = await canonicalize(parent, hops);
  const candidate = path.join(realParent, path.basename(abs));
  let target: string | null = null;
  try {
    if ((await fs.lstat(candidate)).isSymbolicLink()) target = await fs.readlink(candidate);
  } catch {
    // Missing: an ordinary new path.
  }
  if (target === null) return candidate;
  // A dangling symlink: writing through it would create its target, so the target is what must be inside.
  if (hops >= MAX_LINK_HOPS) throw new ToolError(`"${abs}" has too many symbolic links.`);
  return canonicalize(path.resolve(realParent, target), hops + 1);
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}
