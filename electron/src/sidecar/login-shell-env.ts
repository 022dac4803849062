import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { killProcessTree } from './kill-tree';

export interface LoginShellPathOptions {
  /** The shell to ask; defaults to $SHELL, else /bin/zsh on macOS and /bin/bash elsewhere. */
  shell?: string;
  timeoutMs?: number;
  platform?: NodeJS.Platform;
  /** The environment the shell starts with (HOME decides which rc files it reads). */
  env?: NodeJS.ProcessEnv;
  spawnImpl?: typeof spawn;
}

/** Enough for any real PATH; more means a runaway rc file, which we stop listening to. */
const MAX_OUTPUT = 1024 * 1024;

/**
 * The PATH the user's interactive login shell sets up. An app launched from the Dock, Finder or a
 * desktop menu gets only the system's minimal PATH, so `npx`, `uvx` or a Homebrew `python3` would
 * not be found by the sidecar. Returns null when it cannot be read in time (a slow or broken rc file
 * must not keep the app from starting) and on Windows, where GUI apps inherit the user's PATH.
 */
export function readLoginShellPath(options: LoginShellPathOptions = {}): Promise<string | null> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') return Promise.resolve(null);
  const env = options.env ?? process.env;
  const shell = options.shell || env.SHELL || (platform === 'darwin' ? '/bin/zsh' : '/bin/bash');
  const timeoutMs = options.timeoutMs ?? 5000;
  const spawnImpl = options.spawnImpl ?? spawn;

  // rc files print greetings, so the answer sits between markers. The script builds each marker from
  // two halves, so a shell echoing its command line (set -v, set -x) cannot produce a false match.
  const id = randomBytes(8).toString('hex');
  const start = `__CAIRN_PATH_START_${id}__`;
  const end = `__CAIRN_PATH_END_${id}__`;
  const half = (marker: string) => `'${marker.slice(0, 8)}' '${marker.slice(8)}'`;
  // printf, printenv and ';' mean the same in sh, bash, zsh and fish.
  const script = `printf '%s%s' ${half(start)}; printenv PATH; printf '%s%s' ${half(end)}`;

  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // detached: a new session with no controlling terminal, so an interactive shell cannot grab or
      // wait for the terminal the app was started from, and its process group can be killed whole.
      child = spawnImpl(shell, ['-ilc', script], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
    } catch {
      resolve(null);
      return;
    }

    let settled = false;
    let exited = false;
    let output = '';
    const finish = (value: string | null) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };

    // Fires even after an answer: a shell that lingers (a slow logout script) is killed too, and so
    // is whatever still holds its pipes after it exited.
    const timer = setTimeout(() => {
      void killShell(child, exited).then(() => finish(null));
    }, timeoutMs);

    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (output.length < MAX_OUTPUT) output += chunk;
      const found = between(output, start, end);
      if (found !== undefined) finish(found);
    });
    child.stderr?.resume();
    child.on('error', () => {
      clearTimeout(timer);
      finish(null);
    });
    child.on('exit', () => {
      exited = true;
      if (settled) clearTimeout(timer);
    });
    // After 'close' all output is in; a shell that ended without the end marker has nothing to give.
    child.on('close', () => {
      clearTimeout(timer);
      finish(between(output, start, end) ?? null);
    });
  });
}

/** The trimmed text between the markers; null if it is no usable PATH; undefined if not complete yet. */
function between(output: string, start: string, end: string): string | null | undefined {
  const from = output.indexOf(start);
  if (from < 0) return undefined;
  const to = output.indexOf(end, from + start.length);
  if (to < 0) return undefined;
  const value = output.slice(from + start.length, to).trim();
  return value === '' || value.includes('\n') ? null : value;
}

/** The shell and whatever its rc files started: the tree by parentage, then the process group. */
async function killShell(child: ChildProcess, exited: boolean): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  // Once the shell is reaped its pid may be reused, so only a live shell's tree is walked. Its group
  // id cannot be reused while any member lives, so the group kill is safe either way.
  if (!exited) await killProcessTree(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already empty.
  }
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  }
}
