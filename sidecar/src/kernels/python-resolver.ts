import { execFile } from 'node:child_process';
import { existsSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { CairnError } from '../errors';
import { type SandboxedCommand, type SandboxSpec, sandboxCommand } from '../process/sandbox';
import type { PythonCommand } from './driver-spawn';

/** The oldest Python the driver supports. */
export const MIN_PYTHON: readonly [number, number] = [3, 9];

export interface PythonInterpreter extends PythonCommand {
  /** `3.11.7` */
  version: string;
  /** Where it was found: the project's settings, the project's virtual environment, or PATH. */
  source: 'configured' | 'venv' | 'path';
}

export interface ResolvePythonOptions {
  /** Where `.venv`/`venv` are looked for, and the folder the check runs in (pyenv and the like read it). */
  projectRoot: string | null;
  /** A configured interpreter; when set it is the only candidate (a broken setting should not be bypassed). */
  configuredPath?: string | null;
  /** Who set configuredPath, so a message says what to fix: the project's settings (default) or the environment. */
  configuredBy?: PythonSetting;
  /** The environment the check runs with: the same scrubbed one the kernel gets, so PATH agrees. */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** How long one candidate may take to print its version. */
  timeoutMs?: number;
  /**
   * The sandbox the project's processes run in: the check runs there too, since a candidate in the project
   * (its `.venv`) is a file the agent may have written.
   */
  sandbox?: SandboxSpec | null;
}

/** Where a configured interpreter path comes from: a project's settings, or CAIRN_KERNEL_PYTHON. */
export type PythonSetting = 'project' | 'environment';

/** Missing or unusable Python: the message names what was tried and what to install. */
export class PythonNotFoundError extends CairnError {
  constructor(message: string) {
    super('python_not_found', message);
    this.name = 'PythonNotFoundError';
  }
}

interface Candidate extends PythonCommand {
  source: PythonInterpreter['source'];
  /** How the candidate is named in messages. */
  label: string;
}

const VERSION_SCRIPT = "import sys; print('%d.%d.%d' % tuple(sys.version_info[:3])); print(sys.executable)";
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The interpreter for a project's kernels: a configured path, else the project's `.venv` or `venv`, else
 * `python3` on PATH (`py -3`, then `python`, on Windows). Each candidate must run and be Python 3.9+.
 * Throws PythonNotFoundError naming what was tried and what to install.
 */
export async function resolvePython(opts: ResolvePythonOptions): Promise<PythonInterpreter> {
  const platform = opts.platform ?? process.platform;
  const tried: string[] = [];
  for (const candidate of candidates(opts, platform)) {
    const result = await checkCandidate(candidate, opts, platform);
    if (typeof result === 'string') {
      tried.push(`${candidate.label} (${result})`);
      continue;
    }
    return { ...result };
  }
  const configured = opts.configuredPath ? (opts.configuredBy ?? 'project') : null;
  throw new PythonNotFoundError(notFoundMessage(tried, platform, configured));
}

function candidates(opts: ResolvePythonOptions, platform: NodeJS.Platform): Candidate[] {
  if (opts.configuredPath) {
    return [{ command: opts.configuredPath, args: [], source: 'configured', label: opts.configuredPath }];
  }
  const p = platform === 'win32' ? path.win32 : path.posix;
  const found: Candidate[] = [];
  if (opts.projectRoot) {
    for (const dir of ['.venv', 'venv']) {
      const files =
        platform === 'win32'
          ? [p.join(opts.projectRoot, dir, 'Scripts', 'python.exe')]
          : [p.join(opts.projectRoot, dir, 'bin', 'python3'), p.join(opts.projectRoot, dir, 'bin', 'python')];
      const file = files.find((f) => existsSync(f));
      if (file) found.push({ command: file, args: [], source: 'venv', label: file });
    }
  }
  if (platform === 'win32') {
    found.push({ command: 'py', args: ['-3'], source: 'path', label: '`py -3`' });
    found.push({ command: 'python', args: [], source: 'path', label: '`python` on PATH' });
  } else {
    found.push({ command: 'python3', args: [], source: 'path', label: '`python3` on PATH' });
  }
  return found;
}

/**
 * Successful checks, for the life of the process: starting Python to ask its version costs tens of
 * milliseconds (more through a pyenv shim), on every new session's first kernel. Keyed by what decides the
 * answer: the command and its arguments, the folder and PATH it runs with, and the program file it names
 * (changed or replaced: checked again). A hit also needs the interpreter it led to to be unchanged. Failures
 * are not kept, so installing Python helps at once.
 */
interface CheckEntry {
  check: Promise<PythonInterpreter | string>;
  /** Once it succeeded: the interpreter it found and that file's fingerprint then (a hit needs the same now). */
  found: { command: string; fingerprint: string } | null;
}
const checks = new Map<string, CheckEntry>();

/** Forgets every check (tests). */
export function clearPythonChecks(): void {
  checks.clear();
}

function checkCandidate(
  candidate: Candidate,
  opts: ResolvePythonOptions,
  platform: NodeJS.Platform,
): Promise<PythonInterpreter | string> {
  const key = JSON.stringify([
    candidate.command,
    candidate.args,
    candidate.source,
    opts.projectRoot,
    opts.env.PATH ?? opts.env.Path ?? null,
    opts.env.PYENV_VERSION ?? null,
    fingerprint(programFile(candidate.command, opts.env, platform)),
    // pyenv and the like pick the version from this file
    fingerprint(opts.projectRoot ? path.join(opts.projectRoot, '.python-version') : null),
    opts.sandbox ?? null,
  ]);
  const known = checks.get(key);
  // Still running (two sessions starting at once share it), or done with the interpreter unchanged since.
  if (known && (known.found === null || fingerprint(known.found.command) === known.found.fingerprint))
    return known.check;
  const entry: CheckEntry = { check: probeCandidate(candidate, opts), found: null };
  checks.set(key, entry);
  void entry.check.then((result) => {
    if (checks.get(key) !== entry) return;
    if (typeof result === 'string') checks.delete(key);
    else entry.found = { command: result.command, fingerprint: fingerprint(result.command) };
  });
  return entry.check;
}

/** The file a command runs: itself when it has a path, else the first match on PATH (null if none). */
function programFile(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  if (command.includes('/') || command.includes('\\')) return command;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const exts = platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(p.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = p.join(dir, command + ext);
      if (existsSync(file)) return file;
    }
  }
  return null;
}

/** Identity and modification of a file, or 'none'. */
function fingerprint(file: string | null): string {
  if (!file) return 'none';
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    return 'none';
  }
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

/** The interpreter when the candidate runs and is recent enough, else why not. */
function probeCandidate(
  candidate: Candidate,
  opts: ResolvePythonOptions,
): Promise<PythonInterpreter | string> {
  let command: SandboxedCommand;
  try {
    const cwd = opts.projectRoot ?? process.cwd();
    command = sandboxCommand(opts.sandbox, candidate.command, [...candidate.args, '-c', VERSION_SCRIPT], cwd);
  } catch (error) {
    return Promise.resolve(`cannot be checked in the project's sandbox: ${firstLine(String(error))}`);
  }
  return new Promise((resolve) => {
    execFile(
      command.file,
      command.args,
      {
        cwd: opts.projectRoot ?? undefined,
        env: opts.env,
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        windowsHide: true,
        encoding: 'utf8',
      },
      (err, stdout) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') resolve('not found');
          else if (err.killed) resolve('did not answer in time');
          else resolve(`does not run: ${firstLine(err.message)}`);
          return;
        }
        const [versionLine = '', executable = ''] = stdout.trim().split(/\r?\n/);
        const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(versionLine.trim());
        if (!match) {
          resolve(`printed no Python version: ${firstLine(stdout) || 'nothing'}`);
          return;
        }
        const [major, minor] = [Number(match[1]), Number(match[2])];
        if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
          resolve(`Python ${versionLine.trim()} is too old; ${MIN_PYTHON.join('.')} or newer is needed`);
          return;
        }
        // The real executable rather than a launcher or shim: starts faster and means the same program later.
        const direct = executable.trim();
        const usable = direct !== '' && path.isAbsolute(direct) && existsSync(direct);
        resolve({
          command: usable ? direct : candidate.command,
          args: usable ? [] : candidate.args,
          version: versionLine.trim(),
          source: candidate.source,
        });
      },
    );
  });
}

function notFoundMessage(
  tried: string[],
  platform: NodeJS.Platform,
  configured: PythonSetting | null,
): string {
  const need = `Python kernels need Python ${MIN_PYTHON.join('.')} or newer.`;
  const what = `No usable Python was found. Tried: ${tried.join('; ')}.`;
  if (configured === 'environment') {
    return `${what} ${need} The path comes from CAIRN_KERNEL_PYTHON, which sets the interpreter for every project: fix or unset it, then restart Cairn.`;
  }
  if (configured === 'project') {
    return `${what} ${need} Fix or clear the interpreter path set for this project (Settings → Python kernels).`;
  }
  const install =
    platform === 'win32'
      ? 'Install Python from https://www.python.org/downloads/ or the Microsoft Store (either provides the `py` launcher)'
      : platform === 'darwin'
        ? 'Install Python from https://www.python.org/downloads/ (or `brew install python3`)'
        : 'Install Python 3 (Debian/Ubuntu: `sudo apt-get install python3`; or from https://www.python.org/downloads/)';
  return `${what} ${need} ${install}, create a virtual environment in the project (.venv), or set the interpreter path for this project.`;
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0] ?? '';
}
