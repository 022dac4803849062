import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { signalGroup, taskkillTree } from '../process/process-group';
import { type SandboxSpec, sandboxCommand } from '../process/sandbox';

/** Characters kept per stream; half from the start, half from the end (errors tend to come last). */
export const DEFAULT_MAX_OUTPUT_CHARS = 1_000_000;
/** After SIGTERM, how long the tree gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the direct child exits, how long to wait for the pipes to close (a grandchild may hold them). */
const DRAIN_MS = 200;
/** After a kill, the latest we resolve even if no 'exit' arrives (a process stuck in the kernel). */
const KILL_DEADLINE_MS = KILL_GRACE_MS + 2000;

export interface RunProcessOptions {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborting kills the whole process tree; the result then has `cancelled: true`. */
  signal?: AbortSignal;
  /** Kills the whole process tree after this long; the result then has `timedOut: true`. */
  timeoutMs?: number;
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /**
   * Called once the program has started, with its pid (on POSIX also its process group's id). Must not
   * throw; an error it throws is ignored so the run goes on.
   */
  onSpawn?: (pid: number) => void;
  /** Passed to spawn; leave off for model-supplied arguments. */
  shell?: boolean;
  /**
   * Runs the program in this sandbox (bwrap leads the process group, so cancel and timeout still end it all);
   * throws sandbox_unavailable when the sandbox cannot run.
   */
  sandbox?: SandboxSpec | null;
  maxOutputChars?: number;
}

export interface RunProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in arrival order. */
  output: string;
  /** Some output was dropped to respect the cap (the text says where). */
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * Runs a program without a shell, in its own process group on POSIX, streaming its output. On timeout or
 * abort the whole tree is killed and the promise resolves soon after, even if a grandchild still holds the
 * pipes. Processes a command leaves running in the background after a normal exit are left alone (in a
 * sandbox they end with it). Rejects only when the program cannot be started (e.g. ENOENT, or
 * sandbox_unavailable).
 */
export function runProcess(opts: RunProcessOptions): Promise<RunProcessResult> {
  const cap = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const captured = { stdout: new CappedText(cap), stderr: new CappedText(cap), output: new CappedText(cap) };
  const result = (extra: Partial<RunProcessResult>): RunProcessResult => ({
    exitCode: null,
    signal: null,
    stdout: captured.stdout.toString(),
    stderr: captured.stderr.toString(),
    output: captured.output.toString(),
    truncated: captured.stdout.omitted + captured.stderr.omitted + captured.output.omitted > 0,
    timedOut: false,
    cancelled: false,
    ...extra,
  });

  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      resolve(result({ cancelled: true }));
      return;
    }
    let child: ChildProcess;
    try {
      const command = sandboxCommand(opts.sandbox, opts.file, opts.args, opts.cwd);
      child = spawn(command.file, command.args, {
        cwd: opts.cwd,
        env: opts.env,
        shell: opts.shell ?? false,
        // Its own process group, so the whole tree can be signalled at once (a new console on Windows).
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      reject(err);
      return;
    }

    let timedOut = false;
    let cancelled = false;
    let killed = false;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    const timers: NodeJS.Timeout[] = [];
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };

    const take = (stream: 'stdout' | 'stderr', text: string) => {
      if (text === '') return;
      captured[stream].push(text);
      captured.output.push(text);
      opts.onOutput?.(stream, text);
    };
    child.stdout?.on('data', (chunk: Buffer) => take('stdout', decoders.stdout.write(chunk)));
    child.stderr?.on('data', (chunk: Buffer) => take('stderr', decoders.stderr.write(chunk)));

    const cleanup = () => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const finish = () => {
      if (settled) return;
      cleanup();
      take('stdout', decoders.stdout.end());
      take('stderr', decoders.stderr.end());
      // A grandchild may still hold the pipes; stop reading so they do not keep this process busy.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result({ exitCode, signal: exitSignal, timedOut, cancelled }));
    };
    const kill = () => {
      if (killed || settled) return;
      killed = true;
      killTree(child);
      timers.push(setTimeout(finish, KILL_DEADLINE_MS));
    };
    function onAbort() {
      cancelled = true;
      kill();
    }

    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.timeoutMs !== undefined && opts.timeoutMs > 0) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          kill();
        }, opts.timeoutMs),
      );
    }
    child.on('error', (err) => {
      // Only a failure to start matters; a failed kill is covered by the deadline.
      if (child.pid === undefined && !settled) {
        cleanup();
        reject(err);
      }
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      timers.push(setTimeout(finish, DRAIN_MS));
    });
    child.on('close', (code, signal) => {
      exitCode ??= code;
      exitSignal ??= signal;
      finish();
    });
    if (child.pid !== undefined) {
      try {
        opts.onSpawn?.(child.pid);
      } catch {
        // A failed notification must not leave the process unmanaged.
      }
    }
  });
}

/** Kills a child and everything it started: its process group on POSIX, `taskkill /T` on Windows. */
export function killTree(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    void taskkillTree(pid).then((ran) => ran || child.kill());
    return;
  }
  // SIGTERM first so well-behaved programs can clean up; SIGKILL for the rest after a grace period.
  if (!signalGroup(pid, 'SIGTERM')) child.kill('SIGKILL');
  setTimeout(() => signalGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
}

/** Text capped to about `cap` characters: the first half and the latest half, with a note of the gap. */
class CappedText {
  private head = '';
  private tail: string[] = [];
  private tailLength = 0;
  omitted = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(cap: number) {
    this.headCap = Math.ceil(cap / 2);
    this.tailCap = Math.floor(cap / 2);
  }

  push(text: string): void {
    let rest = text;
    if (this.head.length < this.headCap) {
      const room = this.headCap - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tailLength > this.tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailLength - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.omitted += first.length;
      } else {
        this.tail[0] = first.slice(excess);
        this.tailLength -= excess;
        this.omitted += excess;
      }
    }
  }

  toString(): string {
    const tail = this.tail.join('');
    if (this.omitted === 0) return this.head + tail;
    return `${this.head}\n[... ${this.omitted} characters of output omitted ...]\n${tail}`;
  }
}
