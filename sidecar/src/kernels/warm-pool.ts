import type { Logger } from '../log/logger';
import type { SandboxSpec } from '../process/sandbox';
import type { PythonCommand } from './driver-spawn';
import type { KernelHandle } from './kernel-handle';

/** What a kernel is started with; spares are kept per distinct spec (the folder is fixed at start). */
export interface KernelSpec {
  python: PythonCommand;
  cwd: string;
  ipython: boolean;
  /** The project's sandbox the kernel runs in; null for none. A spare is only taken under the same one. */
  sandbox: SandboxSpec | null;
}

interface Spare {
  /** Resolves to the started process, or null when it failed to start or died while waiting. */
  process: Promise<KernelHandle | null>;
  /** Set once started, so disposal can kill it without waiting. */
  started: KernelHandle | null;
  /** Disposed before it was taken: killed as soon as it is up. */
  disposed: boolean;
}

export function specKey(spec: KernelSpec): string {
  return JSON.stringify([spec.python.command, spec.python.args, spec.cwd, spec.ipython, spec.sandbox]);
}

/**
 * One started, idle kernel per spec, so a call does not wait for Python to start: prepared on first need,
 * taken by the next kernel that starts, and replaced at once. Spares are disposable: one that dies is
 * dropped, and dispose() kills them.
 */
export class WarmPool {
  private readonly spares = new Map<string, Spare>();
  private closed = false;

  constructor(
    private readonly start: (spec: KernelSpec) => Promise<KernelHandle>,
    private readonly logger: Logger,
  ) {}

  /** Starts a spare for `spec` unless one is there or on its way. */
  prepare(spec: KernelSpec): void {
    const key = specKey(spec);
    if (this.closed || this.spares.has(key)) return;
    const spare: Spare = { process: Promise.resolve(null), started: null, disposed: false };
    spare.process = this.start(spec).then(
      async (proc) => {
        if (spare.disposed) {
          await proc.kill();
          return null;
        }
        spare.started = proc;
        proc.onExit(() => {
          if (this.spares.get(key) === spare) this.spares.delete(key);
        });
        return proc;
      },
      (err: unknown) => {
        this.logger.warn('could not start a warm kernel', { error: String(err) });
        if (this.spares.get(key) === spare) this.spares.delete(key);
        return null;
      },
    );
    this.spares.set(key, spare);
  }

  /**
   * The spare for `spec` (waiting for it if it is still starting: that is never slower than a cold start),
   * or null when there is none; a new spare is started in its place.
   */
  async take(spec: KernelSpec): Promise<KernelHandle | null> {
    const key = specKey(spec);
    const spare = this.spares.get(key);
    if (!spare) {
      this.prepare(spec);
      return null;
    }
    this.spares.delete(key);
    const proc = await spare.process;
    this.prepare(spec);
    return proc?.isAlive ? proc : null;
  }

  /** The spares' pids (those started), for diagnostics and tests. */
  pids(): number[] {
    return [...this.spares.values()].flatMap((s) =>
      s.started?.isAlive && s.started.pid !== null ? [s.started.pid] : [],
    );
  }

  /** Kills the spare of one spec, e.g. when no open session uses it any more. */
  async dispose(spec: KernelSpec): Promise<void> {
    const key = specKey(spec);
    const spare = this.spares.get(key);
    this.spares.delete(key);
    await killSpare(spare);
  }

  async disposeAll(): Promise<void> {
    this.closed = true;
    const spares = [...this.spares.values()];
    this.spares.clear();
    await Promise.all(spares.map(killSpare));
  }
}

async function killSpare(spare: Spare | undefined): Promise<void> {
  if (!spare) return;
  spare.disposed = true;
  // A spare still starting is killed by its own start handler once it is up.
  const proc = spare.started ?? (await spare.process);
  await proc?.kill();
}
