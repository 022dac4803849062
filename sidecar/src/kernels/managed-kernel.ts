import { randomBytes } from 'node:crypto';
import { CairnError, type ErrorCode, notFound } from '../errors';
import type { Logger } from '../log/logger';
import type { ArtifactStore } from './artifact-store';
import { AuditLog } from './audit-log';
import { type CellOutcome, CellRun } from './cell-run';
import { type ErrorDetails, kernelError } from './driver-messages';
import { diedError, killedError, withLimit } from './execution-errors';
import { describeExit, type ExitInfo } from './kernel-exit';
import type { KernelHandle } from './kernel-handle';
import type {
  ExecutionResult,
  KernelEvent,
  KernelEventListener,
  KernelInfo,
  KernelLimits,
  RichOutput,
  StartReason,
  VariableInfo,
} from './kernel-types';
import { PythonNotFoundError } from './python-resolver';

export interface ManagedKernelOptions {
  name: string;
  /** A started process for this kernel: the warm spare when there is one. */
  acquire: () => Promise<{ process: KernelHandle; warm: boolean }>;
  limits: KernelLimits;
  /** Where this kernel's `executions.jsonl` goes. */
  auditDir: string;
  artifacts: ArtifactStore;
  onEvent: KernelEventListener;
  logger: Logger;
}

export interface ExecuteOptions {
  /** Aborting interrupts the cell (and kills the kernel if it does not stop). */
  signal?: AbortSignal;
  /** Over the kernel's own; `activeMs: Infinity` for no active-time limit. */
  limits?: Partial<KernelLimits>;
  /** The cell's CAIRN_TOOL_TOKEN while it runs (an agent's cell); a local kernel only. */
  toolToken?: string;
  /** The cell's output as it streams, as the `kernel.stream` events carry it (a tool call's pieces). */
  onStream?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/**
 * One named kernel of a session: runs its executions one at a time, enforces the limits, and replaces its
 * process when it dies or has to be killed, telling the next call that state was lost.
 */
export class ManagedKernel {
  readonly name: string;
  private proc: KernelHandle | null = null;
  private starting: Promise<KernelHandle> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private run: { cell: CellRun; executionId: string } | null = null;
  private nextStartReason: StartReason = 'first_use';
  private stateLost: string | null = null;
  private executionCount = 0;
  private closed = false;
  private readonly audit: AuditLog;

  constructor(private readonly opts: ManagedKernelOptions) {
    this.name = opts.name;
    this.audit = new AuditLog(opts.auditDir, opts.logger);
  }

  /** Runs a cell after those queued before it; resolves with its result whatever happens to the kernel. */
  execute(code: string, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    return this.enqueue(() => this.runCell(code, options));
  }

  /** Answers a pending `input()` of the running cell. */
  reply(requestId: string, value: string): void {
    if (!this.run?.cell.reply(requestId, value)) throw notFound('Input request', requestId);
  }

  /** Interrupts the running cell (a kill and restart follow if it does not stop); false when none runs. */
  interrupt(): boolean {
    if (!this.run) return false;
    this.run.cell.interrupt();
    return true;
  }

  /** Kills the process (ending a running cell) and starts a fresh one. */
  async restart(): Promise<void> {
    this.assertOpen();
    this.run?.cell.expectExit('restart');
    const old = this.proc ?? (await this.starting?.catch(() => null)) ?? null;
    this.proc = null;
    // Before the kill: a queued call that starts the next process meanwhile must report the restart too.
    this.nextStartReason = 'restart';
    this.stateLost = 'the kernel was restarted';
    if (old?.isAlive) await old.kill();
    await this.ensureProcess();
  }

  /** Clears the user's variables (nothing to do when no process runs: there are none). */
  reset(): Promise<void> {
    return this.enqueue(async () => {
      if (this.proc?.isAlive) await this.proc.reset();
    });
  }

  listVariables(): Promise<VariableInfo[]> {
    return this.enqueue(async () => (this.proc?.isAlive ? this.proc.listVariables() : []));
  }

  info(): KernelInfo {
    const proc = this.proc?.isAlive ? this.proc : null;
    let state: KernelInfo['state'];
    if (proc) state = this.run ? (this.run.cell.waitingInput ? 'waiting_input' : 'busy') : 'idle';
    else if (this.starting) state = 'starting';
    else state = this.nextStartReason === 'first_use' && !this.closed ? 'not_started' : 'dead';
    return {
      name: this.name,
      state,
      pid: proc?.pid ?? null,
      python: proc?.ready.python ?? null,
      ipython: proc?.ready.ipython ?? null,
      executionCount: this.executionCount,
    };
  }

  /** Ends the kernel for good: a running cell ends, the process group is killed. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.run?.cell.expectExit('shutdown');
    const proc = this.proc ?? (await this.starting?.catch(() => null)) ?? null;
    this.proc = null;
    if (proc?.isAlive) await proc.shutdown(1_000);
    this.audit.close();
  }

  private async runCell(code: string, options: ExecuteOptions): Promise<ExecutionResult> {
    const executionId = `exe_${randomBytes(12).toString('base64url')}`;
    const startedAt = new Date();
    const limits = { ...this.opts.limits, ...options.limits };
    this.emit({ type: 'kernel.execution_started', kernel: this.name, execution_id: executionId, code });

    // The cell could not run at all: `kernel.error` instead of `kernel.result`.
    const refuse = (type: string, errorCode: ErrorCode, message: string): ExecutionResult => {
      this.emit({
        type: 'kernel.error',
        kernel: this.name,
        execution_id: executionId,
        code: errorCode,
        message,
      });
      const result = this.result(executionId, { error: kernelError(type, message) });
      this.audit.record({ startedAt, code, limits, result });
      return result;
    };
    // `conflict`, as a request to a kernel shut down is answered over HTTP (assertOpen).
    if (this.closed) return refuse('KernelShutdown', 'conflict', 'The kernel was shut down.');
    if (options.signal?.aborted) return refuse('ExecutionCancelled', 'cancelled', 'The call was cancelled.');

    let proc: KernelHandle;
    try {
      proc = await this.ensureProcess();
    } catch (err) {
      const errorCode = err instanceof CairnError ? err.code : 'kernel_start_failed';
      const type = err instanceof PythonNotFoundError ? 'PythonNotFound' : 'KernelStartError';
      return refuse(type, errorCode, err instanceof Error ? err.message : String(err));
    }
    const stateLost = this.stateLost;
    this.stateLost = null;
    this.executionCount += 1;

    const displays: RichOutput[] = [];
    const cell = new CellRun(
      proc,
      code,
      executionId,
      limits,
      {
        onStream: (stream, text) => {
          this.emit({ type: 'kernel.stream', kernel: this.name, execution_id: executionId, stream, text });
          this.tell(options.onStream, stream, text);
        },
        onDisplay: (data) => {
          const output = this.opts.artifacts.save(data);
          displays.push(output);
          this.emit({ type: 'kernel.display', kernel: this.name, execution_id: executionId, ...output });
        },
        onInputRequest: (request) =>
          this.emit({
            type: 'kernel.input_request',
            kernel: this.name,
            execution_id: executionId,
            request_id: request.requestId,
            prompt: request.prompt,
            password: request.password,
          }),
      },
      { signal: options.signal, toolToken: options.toolToken },
    );
    this.run = { cell, executionId };
    let outcome: CellOutcome;
    try {
      outcome = await cell.done;
    } finally {
      this.run = null;
    }

    const result = this.result(executionId, {
      ...this.judge(outcome, limits),
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      returnValue: outcome.result?.returnValue ? this.opts.artifacts.save(outcome.result.returnValue) : null,
      displays,
      executionTimeMs: outcome.wallMs,
      activeTimeMs: outcome.activeMs,
      limit: outcome.limit,
      stateLost,
      kernelExit: outcome.exit
        ? { code: outcome.exit.code, signal: outcome.exit.signal, stderrTail: outcome.exit.stderrTail }
        : null,
    });
    this.emit({
      type: 'kernel.result',
      kernel: this.name,
      execution_id: executionId,
      success: result.success,
      return_value: result.returnValue,
      error: result.error,
      execution_time_ms: result.executionTimeMs,
      limit: result.limit
        ? { kind: result.limit.kind, limit_ms: result.limit.limitMs, action: result.limit.action }
        : null,
      state_lost: result.stateLost,
    });
    this.audit.record({ startedAt, code, limits, result });
    return result;
  }

  /** Success and error of a finished cell; starts a replacement when the cell had to be killed. */
  private judge(
    outcome: CellOutcome,
    limits: KernelLimits,
  ): { success: boolean; error: ErrorDetails | null } {
    // Before the result: a grace kill can race a late result, and the process is gone all the same.
    if (outcome.killed && outcome.stoppedBy && !outcome.endedBy && !this.closed) {
      // The kill may not have landed yet: the next cell must not be sent to the dying process.
      this.proc = null;
      this.nextStartReason = 'after_limit';
      this.stateLost = 'the kernel was killed and restarted to stop a cell that ignored an interrupt';
      this.ensureProcess().catch((err: unknown) =>
        this.opts.logger.warn('could not restart a kernel', { kernel: this.name, error: String(err) }),
      );
      return {
        success: false,
        error: killedError(outcome.stoppedBy, outcome.limit, limits.interruptGraceMs),
      };
    }
    if (outcome.result) {
      const { success, error } = outcome.result;
      if (outcome.limit) return { success: false, error: withLimit(error, outcome.limit) };
      return { success, error };
    }
    if (outcome.endedBy === 'shutdown' || this.closed) {
      return {
        success: false,
        error: kernelError('KernelShutdown', 'The kernel was shut down while this cell ran.'),
      };
    }
    // A kill we asked for that no limit or interrupt explains is a restart, also one that came before the
    // cell was registered as running (it had just taken the process when the restart killed it).
    if (outcome.endedBy === 'restart' || outcome.exit?.requested) {
      return {
        success: false,
        error: kernelError('KernelRestarted', 'The kernel was restarted while this cell ran.'),
      };
    }
    return { success: false, error: diedError(outcome.exit!) };
  }

  private result(executionId: string, fields: Partial<ExecutionResult>): ExecutionResult {
    return {
      executionId,
      kernel: this.name,
      success: false,
      stdout: '',
      stderr: '',
      returnValue: null,
      displays: [],
      error: null,
      executionTimeMs: 0,
      activeTimeMs: 0,
      limit: null,
      stateLost: null,
      kernelExit: null,
      ...fields,
    };
  }

  private ensureProcess(): Promise<KernelHandle> {
    if (this.proc?.isAlive) return Promise.resolve(this.proc);
    if (this.starting) return this.starting;
    const reason = this.nextStartReason;
    const starting = this.opts.acquire().then(
      async ({ process: proc, warm }) => {
        this.starting = null;
        if (this.closed) {
          await proc.kill();
          throw new CairnError('conflict', 'The kernel was shut down while it started.');
        }
        this.attach(proc, reason, warm);
        return proc;
      },
      (err: unknown) => {
        this.starting = null;
        throw err;
      },
    );
    this.starting = starting;
    return starting;
  }

  private attach(proc: KernelHandle, reason: StartReason, warm: boolean): void {
    this.proc = proc;
    const { python, implementation, ipython } = proc.ready;
    this.emit({
      type: 'kernel.started',
      kernel: this.name,
      pid: proc.pid,
      server: proc.server,
      python,
      implementation,
      ipython,
      reason,
      warm,
    });
    proc.onExit((exit) => this.onProcessExit(proc, exit));
  }

  /** A death nobody asked for: the event now, and the next call says state was lost. */
  private onProcessExit(proc: KernelHandle, exit: ExitInfo): void {
    if (this.proc !== proc) return; // one already replaced (restart) says nothing about this kernel now
    this.proc = null;
    if (exit.requested || this.closed) return;
    const during = this.run?.executionId ?? null;
    this.nextStartReason = 'after_death';
    this.stateLost = `the previous kernel died (${describeExit(exit)})${during ? ' during a cell' : ' between calls'}; this is a fresh kernel without the earlier variables`;
    this.emit({
      type: 'kernel.died',
      kernel: this.name,
      execution_id: during,
      exit_code: exit.code,
      signal: exit.signal,
      stderr_tail: exit.stderrTail,
      message: `The Python kernel "${this.name}" died (${describeExit(exit)}).`,
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  private assertOpen(): void {
    if (this.closed) throw new CairnError('conflict', `The kernel "${this.name}" was shut down.`);
  }

  /** A caller's stream listener: its failure is logged, never the cell's. */
  private tell(listener: ExecuteOptions['onStream'], stream: 'stdout' | 'stderr', text: string): void {
    if (!listener) return;
    try {
      listener(stream, text);
    } catch (err) {
      this.opts.logger.warn('a stream listener threw', { kernel: this.name, error: String(err) });
    }
  }

  private emit(event: KernelEvent): void {
    try {
      this.opts.onEvent(event);
    } catch (err) {
      this.opts.logger.warn('a kernel event listener threw', { type: event.type, error: String(err) });
    }
  }
}
