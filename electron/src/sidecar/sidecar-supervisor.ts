import { randomBytes } from 'node:crypto';
import { type HostMessage, SidecarMessage } from '../../../sidecar/src/protocol/host';
import { OutputTail } from './output-tail';
import { writeSidecarDiagnostics } from './sidecar-diagnostics';
import { sidecarEnv } from './sidecar-env';
import type { SidecarChild, SidecarLauncher } from './sidecar-launcher';
import { type SidecarBackend, SidecarFailure, type SidecarState } from './sidecar-state';

export { type SidecarBackend, SidecarFailure, type SidecarState } from './sidecar-state';

/** The sidecar binds loopback port 0 itself and reports the port, so no free port is ever guessed. */
export const SIDECAR_SERVE_ARGS: readonly string[] = [
  'serve',
  '--host',
  '127.0.0.1',
  '--port',
  '0',
  '--parent-ipc',
];

export interface SupervisorTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

// Looked up at each call, so test fake timers installed after construction still apply.
const REAL_TIMERS: SupervisorTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export interface SidecarSupervisorOptions {
  launcher: SidecarLauncher;
  /** The sidecar's JavaScript entry. */
  entry: string;
  dataDir: string;
  /** The base environment (see sidecarBaseEnv); called once, at the first launch. */
  env: () => Promise<Record<string, string>>;
  /**
   * Node flags for the sidecar. Electron's utility process keeps only a few debugging flags, so the
   * sidecar applies what it needs itself (e.g. trusting the system's CAs) rather than by flag.
   */
  execArgv: string[];
  cwd?: string;
  platform?: NodeJS.Platform;
  readyTimeoutMs?: number;
  /** How long a graceful stop may take before the process tree is killed. */
  stopGraceMs?: number;
  /** Give up after this many failures within crashWindowMs. */
  maxCrashes?: number;
  crashWindowMs?: number;
  /** The delay before restart number `attempt` (1, 2, …). */
  backoffMs?: (attempt: number) => number;
  diagnostics: { dir: string; appVersion: string; versions: Record<string, string | undefined> };
  killTree: (pid: number) => Promise<void>;
  timers?: SupervisorTimers;
}

/** 500 ms, doubling, at most 8 s. */
export function defaultBackoffMs(attempt: number): number {
  return Math.min(500 * 2 ** Math.max(0, attempt - 1), 8000);
}

/** After SIGKILL an exit comes at once; this only bounds a process the OS will not let go of. */
const KILL_WAIT_MS = 2000;
/** How long a graceful stop may take before the host kills the sidecar anyway. */
const STOP_GRACE_MS = 10_000;

interface Launch {
  child: SidecarChild;
  /** Handed over in answer to the sidecar's hello; never put in its environment or arguments. */
  token: string;
  /** Set when the token was sent. */
  configured: boolean;
  /** Set by the ready message. */
  backend: SidecarBackend | null;
  readyPid: number | undefined;
  readyTimer: unknown;
  exited: boolean;
  /** Set by the `stopped` message: the sidecar finished a graceful stop and waits to be ended. */
  stopped: boolean;
  /** Called on exit and on `stopped`. */
  exitWaiters: Set<() => void>;
}

interface Waiter {
  resolve(backend: SidecarBackend): void;
  reject(error: SidecarFailure): void;
}

/**
 * Starts the sidecar, answers its hello with a fresh token, waits for its ready message, restarts it
 * with backoff and a new token when it dies, gives up after repeated failures (with a diagnostics
 * file), and stops it gracefully.
 */
export class SidecarSupervisor {
  private readonly options: SidecarSupervisorOptions;
  private readonly timers: SupervisorTimers;
  private currentState: SidecarState = { kind: 'starting' };
  private readonly listeners = new Set<(state: SidecarState) => void>();
  private readonly waiters = new Set<Waiter>();
  private readonly tail = new OutputTail();
  /** Every token issued: the tail spans launches, and none of them may leave this process. */
  private readonly tokens = new Set<string>();
  private baseEnv: Promise<Record<string, string>> | null = null;
  private started = false;
  private stopRequested = false;
  private stopping: Promise<void> | null = null;
  /** Increments per launch, so an answer for a launch that stop() or a newer launch replaced is dropped. */
  private generation = 0;
  private current: Launch | null = null;
  private backoffTimer: unknown = null;
  private crashTimes: number[] = [];
  private failure: SidecarFailure | null = null;
  /** Kills of launches that timed out, which stop() must also wait for. */
  private readonly kills = new Set<Promise<void>>();

  constructor(options: SidecarSupervisorOptions) {
    this.options = options;
    this.timers = options.timers ?? REAL_TIMERS;
  }

  get state(): SidecarState {
    return this.currentState;
  }

  onStateChange(listener: (state: SidecarState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  start(): void {
    if (this.started || this.stopRequested) return;
    this.started = true;
    this.launch();
  }

  /** The running sidecar's URL and token; waits through a start or restart. */
  backend(): Promise<SidecarBackend> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.stopRequested) return Promise.reject(stoppedFailure());
    const ready = this.current?.backend;
    if (ready) return Promise.resolve({ ...ready });
    return new Promise((resolve, reject) => {
      this.waiters.add({ resolve, reject });
    });
  }

  /**
   * Asks the sidecar to stop gracefully, then kills its process tree: once it answers `stopped` (its
   * database closed, while it still roots the processes its tools left running), or after stopGraceMs
   * without an answer. Never restarts after.
   */
  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    this.stopRequested = true;
    this.generation += 1;
    if (this.backoffTimer !== null) this.timers.clearTimeout(this.backoffTimer);
    this.backoffTimer = null;
    const launch = this.current;
    this.current = null;
    this.rejectWaiters(this.failure ?? stoppedFailure());
    if (launch) {
      this.timers.clearTimeout(launch.readyTimer);
      if (!launch.exited) {
        post(launch.child, { type: 'shutdown' });
        const graceMs = this.options.stopGraceMs ?? STOP_GRACE_MS;
        await this.waitForExit(launch, graceMs, true);
        if (!launch.exited && !launch.stopped) {
          this.note(`the sidecar did not stop within ${graceMs} ms; killing it`);
        }
        // Its orphans could not be found from its pid once it has exited, so end the tree now.
        if (!launch.exited) await this.kill(launch);
      }
    }
    await Promise.all(this.kills);
    this.setState({ kind: 'stopped' });
  }

  private launch(): void {
    const generation = ++this.generation;
    this.setState({ kind: 'starting' });
    this.baseEnv ??= Promise.resolve().then(() => this.options.env());
    this.baseEnv.then(
      (base) => {
        if (generation === this.generation && !this.stopRequested) this.spawn(base);
      },
      (error: unknown) => {
        if (generation !== this.generation || this.stopRequested) return;
        this.giveUp(`Cairn could not prepare the sidecar's environment: ${errorText(error)}.`, null);
      },
    );
  }

  private spawn(base: Record<string, string>): void {
    const token = randomBytes(32).toString('base64url');
    this.tokens.add(token);
    const { options } = this;
    const env = sidecarEnv(base, {
      loginPath: null,
      platform: options.platform ?? process.platform,
      dataDir: options.dataDir,
    });
    let child: SidecarChild;
    try {
      child = options.launcher.launch({
        entry: options.entry,
        args: [...SIDECAR_SERVE_ARGS],
        env,
        execArgv: [...options.execArgv],
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
    } catch (error) {
      this.note(`could not launch the sidecar: ${errorText(error)}`);
      this.crashed(null, `The sidecar could not be launched: ${errorText(error)}.`);
      return;
    }
    const launch: Launch = {
      child,
      token,
      configured: false,
      backend: null,
      readyPid: undefined,
      readyTimer: null,
      exited: false,
      stopped: false,
      exitWaiters: new Set(),
    };
    this.current = launch;
    child.onOutput((chunk) => {
      if (this.current === launch) this.tail.append(chunk);
    });
    child.onMessage((message) => this.onMessage(launch, message));
    child.onExit((code) => this.onExit(launch, code));
    const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
    launch.readyTimer = this.timers.setTimeout(
      () => this.onReadyTimeout(launch, readyTimeoutMs),
      readyTimeoutMs,
    );
  }

  private onMessage(launch: Launch, message: unknown): void {
    const parsed = SidecarMessage.safeParse(message);
    if (!parsed.success) {
      // Noted for the diagnostics (a host and sidecar of different versions), never echoed.
      this.note('ignored a message from the sidecar that is not a known sidecar message');
      return;
    }
    if (parsed.data.type === 'stopped') {
      launch.stopped = true;
      for (const notify of [...launch.exitWaiters]) notify();
      return;
    }
    if (parsed.data.type === 'hello') {
      this.onHello(launch);
      return;
    }
    if (this.current !== launch || launch.backend) return;
    if (!launch.configured) {
      // It serves with some token other than ours, which the renderer would not have.
      this.note('ignored a ready message from a sidecar that never asked for its token (another version?)');
      return;
    }
    const ready = parsed.data;
    this.timers.clearTimeout(launch.readyTimer);
    const url = `http://127.0.0.1:${ready.port}`;
    launch.backend = { url, token: launch.token };
    launch.readyPid = ready.pid;
    this.setState({ kind: 'ready', url, port: ready.port });
    for (const waiter of this.takeWaiters()) waiter.resolve({ ...launch.backend });
  }

  /** The sidecar listens on its channel and waits for its token before it serves anything. */
  private onHello(launch: Launch): void {
    if (this.current !== launch) {
      // Stopped (or replaced) while it started: a shutdown sent before it listened may have been lost.
      post(launch.child, { type: 'shutdown' });
      return;
    }
    if (launch.configured) {
      this.note('the sidecar said hello again; it already has its token');
      return;
    }
    launch.configured = true;
    post(launch.child, { type: 'configure', token: launch.token });
  }

  private onExit(launch: Launch, code: number | null): void {
    launch.exited = true;
    for (const notify of launch.exitWaiters) notify();
    if (this.current !== launch) return;
    this.current = null;
    this.timers.clearTimeout(launch.readyTimer);
    const pid = launch.child.pid ?? launch.readyPid;
    this.note(`the sidecar${pid === undefined ? '' : ` (pid ${pid})`} exited with code ${code}`);
    this.crashed(
      code,
      launch.backend
        ? `The sidecar stopped unexpectedly (exit code ${code}).`
        : `The sidecar exited (code ${code}) before it was ready.`,
    );
  }

  private onReadyTimeout(launch: Launch, readyTimeoutMs: number): void {
    if (this.current !== launch || launch.backend) return;
    // Retire it now: its exit, whenever the kill produces it, is no longer news.
    this.current = null;
    this.note(`no ready message within ${readyTimeoutMs} ms; killing the sidecar`);
    const kill = this.kill(launch);
    this.kills.add(kill);
    void kill.finally(() => this.kills.delete(kill));
    // A start that hangs seldom mends itself, and each retry would cost the whole timeout again on an
    // empty window: say so now, with the diagnostics (the user can quit and reopen to try again).
    this.giveUp(
      `The sidecar did not report ready within ${readyTimeoutMs / 1000} s. Quit and reopen Cairn to try again.`,
      null,
    );
  }

  /** Counts a failure; restarts after a backoff, or gives up after too many within the window. */
  private crashed(exitCode: number | null, reason: string): void {
    const { options } = this;
    const now = this.timers.now();
    const windowMs = options.crashWindowMs ?? 120_000;
    this.crashTimes = this.crashTimes.filter((time) => now - time < windowMs);
    this.crashTimes.push(now);
    const failures = this.crashTimes.length;
    const maxCrashes = options.maxCrashes ?? 3;
    if (failures >= maxCrashes) {
      this.giveUp(
        `${reason} Cairn stopped restarting it after ${failures} failures within ${Math.round(windowMs / 1000)} s; quit and reopen Cairn to try again.`,
        exitCode,
      );
      return;
    }
    const delayMs = (options.backoffMs ?? defaultBackoffMs)(failures);
    this.setState({ kind: 'restarting', attempt: failures, delayMs, lastExitCode: exitCode });
    this.backoffTimer = this.timers.setTimeout(() => {
      this.backoffTimer = null;
      if (!this.stopRequested) this.launch();
    }, delayMs);
  }

  private giveUp(message: string, exitCode: number | null): void {
    const diagnosticsFile = this.diagnose(message, exitCode);
    const stderrTail = this.tail.read(this.tokens);
    this.failure = new SidecarFailure('sidecar_failed', message, { stderrTail, diagnosticsFile });
    this.setState({ kind: 'failed', message, stderrTail, diagnosticsFile });
    this.rejectWaiters(this.failure);
  }

  /** Writes a diagnostics file; null (and a note in the tail) when that is impossible. */
  private diagnose(reason: string, exitCode: number | null): string | null {
    const { diagnostics } = this.options;
    try {
      return writeSidecarDiagnostics({
        dir: diagnostics.dir,
        reason,
        exitCode,
        outputTail: this.tail.read(this.tokens),
        appVersion: diagnostics.appVersion,
        versions: diagnostics.versions,
        entry: this.options.entry,
        dataDir: this.options.dataDir,
        secrets: [...this.tokens],
      });
    } catch (error) {
      this.note(`could not write a diagnostics file in ${diagnostics.dir}: ${errorText(error)}`);
      return null;
    }
  }

  /** Kills the launch's process tree and the direct child, then waits (boundedly) for the exit. */
  private async kill(launch: Launch): Promise<void> {
    const pid = launch.child.pid ?? launch.readyPid;
    if (pid !== undefined && !launch.exited) {
      try {
        await this.options.killTree(pid);
      } catch (error) {
        this.note(`killing the sidecar's process tree failed: ${errorText(error)}`);
      }
    }
    if (!launch.exited) launch.child.kill();
    await this.waitForExit(launch, KILL_WAIT_MS);
  }

  /**
   * Resolves true when the launch has exited (or, with `orStopped`, answered `stopped`), false after ms
   * without that.
   */
  private waitForExit(launch: Launch, ms: number, orStopped = false): Promise<boolean> {
    if (launch.exited || (orStopped && launch.stopped)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (exited: boolean) => {
        launch.exitWaiters.delete(onExit);
        this.timers.clearTimeout(timer);
        resolve(exited);
      };
      const onExit = () => {
        if (launch.exited || (orStopped && launch.stopped)) done(true);
      };
      const timer = this.timers.setTimeout(() => done(false), ms);
      launch.exitWaiters.add(onExit);
    });
  }

  /** A line from the host in the output tail, so diagnostics tell the host's side too. */
  private note(text: string): void {
    this.tail.append(`[cairn host] ${text}\n`);
  }

  private setState(state: SidecarState): void {
    this.currentState = Object.freeze(state);
    for (const listener of [...this.listeners]) {
      try {
        listener(this.currentState);
      } catch {
        // A broken listener must not stop the supervisor from supervising.
      }
    }
  }

  private takeWaiters(): Waiter[] {
    const waiters = [...this.waiters];
    this.waiters.clear();
    return waiters;
  }

  private rejectWaiters(error: SidecarFailure): void {
    for (const waiter of this.takeWaiters()) waiter.reject(error);
  }
}

function stoppedFailure(): SidecarFailure {
  return new SidecarFailure(
    'sidecar_stopped',
    'The local sidecar was stopped (Cairn is quitting or switched to a remote backend).',
  );
}

function post(child: SidecarChild, message: HostMessage): void {
  try {
    child.postMessage(message);
  } catch {
    // The channel is gone, so the sidecar is going too; the grace period and the kill follow anyway.
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
