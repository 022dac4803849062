// Runs the real `cairn` command line (sidecar/bin/cairn.mjs) as a child process, the way a user would.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/harness';
import { type ModelServer, startModelServer } from '../support/model-server';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = path.join('sidecar', 'bin', 'cairn.mjs');

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliResult extends CliExit {
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves when the process has exited and its pipes are closed. */
  exited: Promise<CliExit>;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends first. */
  waitForStdout(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Waits for the exit and returns everything printed. */
  result(): Promise<CliResult>;
}

export interface CliOptions {
  env: NodeJS.ProcessEnv;
  /** Written to standard input, which is then closed; without it stdin is /dev/null (never a TTY). */
  input?: string;
}

const live = new Set<CliProcess>();

/** Starts `cairn ARGS…` from the repository root. */
export function startCli(args: string[], options: CliOptions): CliProcess {
  return track(args, options, process.execPath, [BIN, ...args]);
}

/** Whether startCliOnTerminal can work here: it needs util-linux `script` to make a pseudo-terminal. */
export const CAN_USE_TERMINAL =
  process.platform === 'linux' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Starts `cairn ARGS…` on a pseudo-terminal (through `script`), so its stdin is a TTY. What the test writes
 * with `type` is typed at that terminal; stdout and stderr arrive together on `stdout`. The exit code is cairn's.
 */
export function startCliOnTerminal(
  args: string[],
  options: { env: NodeJS.ProcessEnv },
): CliProcess & {
  type(text: string): void;
  /** The pid of cairn itself (the child of `script`). */
  cliPid(): number;
} {
  const command = ['exec', process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const proc = track(args, { env: options.env, input: '' }, 'script', ['-qfec', command, '/dev/null'], true);
  return {
    ...proc,
    get stdout() {
      return proc.stdout;
    },
    get stderr() {
      return proc.stderr;
    },
    type(text) {
      proc.child.stdin?.write(text);
    },
    cliPid() {
      const pid = childrenOf(proc.pid)[0];
      if (pid === undefined) throw new Error('cairn has not started inside `script` yet');
      return pid;
    },
  };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

function track(
  args: string[],
  options: CliOptions,
  file: string,
  argv: string[],
  keepStdinOpen = false,
): CliProcess {
  const child = spawn(file, argv, {
    cwd: REPO_ROOT,
    env: options.env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start cairn ${args.join(' ')}`);
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    for (const watcher of [...watchers]) watcher();
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  if (options.input !== undefined && !keepStdinOpen) child.stdin?.end(options.input);
  const exited = new Promise<CliExit>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });

  const proc: CliProcess = {
    child,
    pid: child.pid,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    waitForStdout(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (!match) return;
          watchers.delete(check);
          resolve(match);
        };
        watchers.add(check);
        check();
        void exited.then(({ code, signal }) => {
          if (!watchers.has(check)) return;
          watchers.delete(check);
          reject(
            new Error(
              `cairn ${args.join(' ')} exited (code ${code}, signal ${signal}) before printing ${pattern}.\n` +
                `stdout:\n${stdout}\nstderr:\n${stderr}`,
            ),
          );
        });
      });
    },
    async result() {
      const exit = await exited;
      return { ...exit, stdout, stderr };
    },
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** Runs `cairn ARGS…` to completion. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).result();
}

/** SIGKILLs every CLI process a test left running (for afterEach). */
export async function killLeftoverClis(): Promise<void> {
  const left = [...live];
  for (const proc of left) proc.child.kill('SIGKILL');
  await Promise.all(left.map((proc) => proc.exited));
}

export interface ServeProcess {
  proc: CliProcess;
  /** http://127.0.0.1:PORT */
  url: string;
  token: string;
  /** Calls the server's API with the token. */
  api<T>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** Starts `cairn serve --port 0 --data-dir DIR` and waits for the URL it prints when ready. */
export async function startServe(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  extra: string[] = [],
): Promise<ServeProcess> {
  const proc = startCli(['serve', '--port', '0', '--data-dir', dataDir, ...extra], { env });
  const match = await proc.waitForStdout(/(http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/);
  const url = match[1]!;
  const token = match[2]!;
  return {
    proc,
    url,
    token,
    async api<T>(method: string, route: string, body?: unknown) {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    },
  };
}

/** Parses the lines `cairn run --json` printed; throws on any line that is not a JSON object. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const value = JSON.parse(line) as unknown;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new Error(`not a JSON object: ${line}`);
      }
      return value as Record<string, unknown>;
    });
}

/** Whether a pid no longer names a live process (gone, or a zombie nobody reaped yet). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name.
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Reads a pid a shell command wrote to `file`, once the whole number is there. */
export function readPidFile(file: string): number | null {
  try {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.endsWith('\n')) return null;
    const pid = Number(text.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** SIGKILLs a pid if it is still there (cleanup for processes a killed sidecar left behind). */
export function killPid(pid: number | null): void {
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** What each CLI test gets: a scripted model server, a data directory and a workspace. */
export interface CliTestFolders {
  model: ModelServer;
  dataDir: string;
  workspace: string;
}

export async function setUpCliTest(prefix: string): Promise<CliTestFolders> {
  return {
    model: await startModelServer(),
    dataDir: tempDir(`${prefix}-data`),
    workspace: tempDir(`${prefix}-ws`),
  };
}

/**
 * Stops every CLI a test started and every process a killed sidecar left behind (commands write their
 * pids into the workspace as `bash.pid` / `sleep.pid`), then removes the folders.
 */
export async function tearDownCliTest(folders: CliTestFolders, strays: (number | null)[]): Promise<void> {
  await killLeftoverClis();
  for (const file of ['bash.pid', 'sleep.pid']) strays.push(readPidFile(path.join(folders.workspace, file)));
  for (const pid of strays.splice(0)) killPid(pid);
  await folders.model.close();
  fs.rmSync(folders.dataDir, { recursive: true, force: true });
  fs.rmSync(folders.workspace, { recursive: true, force: true });
}

/** The model's next reply asks "Which colour?" (red or blue) with AskUserQuestion. */
export function enqueueColourQuestion(model: ModelServer): void {
  model.enqueue({
    content: [
      {
        type: 'tool_use',
        name: 'AskUserQuestion',
        input: { question: 'Which colour?', options: ['red', 'blue'] },
      },
    ],
  });
}
