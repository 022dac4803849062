import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool';

/** What the lookups read from the machine; injected by tests. */
export interface LookupDeps {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Whether a file exists at an absolute path. */
  exists?: (file: string) => boolean;
}

const NO_BASH_MESSAGE =
  'Bash is not available: Git for Windows (which provides bash.exe) was not found. ' +
  'Install it from https://git-scm.com/download/win, or use the Exec tool to run a program directly.';

/**
 * The bash to run commands with. POSIX: `/bin/bash`, else `bash` on PATH. Windows: Git for Windows' bash
 * (never `System32\bash.exe`, which is WSL's launcher), else a ToolError pointing to the Exec tool.
 */
export function resolveBash(deps: LookupDeps = {}): string {
  const platform = deps.platform ?? process.platform;
  const env = deps.env ?? process.env;
  const exists = deps.exists ?? isFile;
  if (platform !== 'win32') {
    if (exists('/bin/bash')) return '/bin/bash';
    const onPath = findOnPath('bash', deps);
    if (onPath) return onPath;
    throw new ToolError(
      'Bash is not available: no /bin/bash and no bash on PATH. Use the Exec tool instead.',
    );
  }

  const win = path.win32;
  const candidates: string[] = [];
  for (const base of [
    envValue(env, 'ProgramFiles'),
    envValue(env, 'ProgramFiles(x86)'),
    envValue(env, 'ProgramW6432'),
  ]) {
    if (base) candidates.push(win.join(base, 'Git', 'bin', 'bash.exe'));
  }
  const localAppData = envValue(env, 'LocalAppData');
  if (localAppData) candidates.push(win.join(localAppData, 'Programs', 'Git', 'bin', 'bash.exe'));
  const git = findOnPath('git', deps);
  if (git) {
    // git.exe lives in Git\cmd, Git\bin or Git\mingw64\bin; bash.exe in Git\bin.
    const dir = win.dirname(git);
    candidates.push(
      win.join(dir, '..', 'bin', 'bash.exe'),
      win.join(dir, '..', '..', 'bin', 'bash.exe'),
      win.join(dir, 'bash.exe'),
    );
  }
  for (const candidate of candidates) {
    if (exists(candidate) && !isWslLauncher(candidate)) return candidate;
  }
  throw new ToolError(NO_BASH_MESSAGE);
}

/** The first `name` on PATH (with PATHEXT's extensions on Windows), or null. */
export function findOnPath(name: string, deps: LookupDeps = {}): string | null {
  const platform = deps.platform ?? process.platform;
  const env = deps.env ?? process.env;
  const exists = deps.exists ?? isFile;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const dirs = (envValue(env, 'PATH') ?? '').split(platform === 'win32' ? ';' : ':').filter((d) => d !== '');
  const extensions =
    platform === 'win32'
      ? (envValue(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)
      : [''];
  for (const dir of dirs) {
    const clean = dir.replace(/^"(.*)"$/, '$1');
    if (!p.isAbsolute(clean)) continue; // A relative PATH entry would depend on the working folder.
    for (const ext of extensions) {
      const candidate = p.join(clean, name + ext.toLowerCase());
      if (exists(candidate)) return candidate;
    }
  }
  return null;
}

/** Environment lookup that ignores case, as Windows does (`Path`, `PATH`). */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const direct = env[name];
  if (direct !== undefined) return direct;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) if (key.toUpperCase() === upper) return value;
  return undefined;
}

function isWslLauncher(file: string): boolean {
  return /\\(system32|sysnative)\\bash\.exe$/i.test(file);
}

function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}
