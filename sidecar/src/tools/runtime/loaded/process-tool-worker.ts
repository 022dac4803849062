import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../../../log/logger';
import { signalGroup } from '../../../process/process-group';
import { type SandboxSpec, sandboxCommand } from '../../../process/sandbox';
import { killTree } from '../../process-runner';
import { LineChannel } from './line-channel';
import { OutputTail } from './output-tail';
import { type ToolWorker, type WorkerEnd, WorkerGoneError, WorkerStoppedError } from './tool-worker';
import { WorkerClient } from './worker-client';

/** How long the tool's close() may take when it is stopped, before its process tree is killed. */
const CLOSE_TIMEOUT_MS = 1000;
/** After the kill, the latest stop() resolves even if no exit arrives (a process stuck in the kernel). */
const EXIT_DEADLINE_MS = 3000;
/** After an unexpected exit, how long its output streams get to deliver their last lines. */
const DRAIN_MS = 300;

export interface WorkerSpawnOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Where the channel is: `fd3` (a JavaScript worker: both ways on fd 3, stdin ignored, stdout is the tool's
   * output) or `stdio` (the Python worker: commands on stdin, answers on stdout, which it keeps to itself).
   */
  channel: 'fd3' | 'stdio';
  cancelGraceMs: number;
  logger: Logger;
  /** The project's sandbox the worker runs in (bwrap leads its process group, so stop() still ends it all). */
  sandbox?: SandboxSpec | null;
}

/**
 * A worker in a process of its own: its own process group on POSIX (detached), so stop() ends the tool and
 * every program it started. An exit nobody asked for fails its calls and is reported once through onEnd;
 * the worker is not started again.
 */
export class ProcessToolWorker implements ToolWorker {
  readonly client: WorkerClient;
  readonly pid: number;
  private readonly channel: LineChannel;
  private readonly tail: OutputTail;
  private readonly endListeners: ((end: WorkerEnd) => void)[] = [];
  private readonly exited: Promise<void>;
  private hasExited = false;
  /** How it ended unexpectedly, once that is known. */
  private end: WorkerEnd | null = null;
  private stopping: Promise<void> | null = null;

  /** Starts the worker; rejects when the program cannot be started (e.g. it does not exist). */
  static async start(options: WorkerSpawnOptions): Promise<ProcessToolWorker> {
    const command = sandboxCommand(options.sandbox, options.command, options.args, options.cwd);
    const child = spawn(command.file, command.args, {
      cwd: options.cwd,
      env: options.env,
      detached: process.platform !== 'win32',
      stdio: options.channel === 'fd3' ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const failed = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (err) => resolve(err));
    });
    if (failed || child.pid === undefined) {
      throw new Error(`could not start ${options.command}: ${failed?.message ?? 'no process id'}`, {
        cause: failed,
      });
    }
    return new ProcessToolWorker(child, child.pid, options);
  }

  private constructor(
    private readonly child: ChildProcess,
    pid: number,
    options: WorkerSpawnOptions,
  ) {
    this.pid = pid;
    const logger = options.logger.child({ worker_pid: pid });
    const [input, output] =
      options.channel === 'fd3'
        ? [child.stdio[3] as Writable, child.stdio[3] as Readable]
        : [child.stdin as Writable, child.stdout as Readable];
    this.channel = new LineChannel(input, output, logger);
    this.client = new WorkerClient(this.channel, { cancelGraceMs: options.cancelGraceMs, logger });
    this.tail = new OutputTail(logger);
    if (options.channel === 'fd3') this.tail.follow(child.stdout as Readable);
    this.tail.follow(child.stderr as Readable);
    // A failed kill is covered by the exit deadline; the error must not go unhandled.
    child.on('error', (err) => logger.warn('loaded tool worker error', { error: err.message }));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.hasExited = true;
        resolve();
        if (!this.stopping) void this.ended(code, signal);
      });
    });
    // A worker whose channel closed can no longer be used: ending it reports the crash through its exit.
    this.channel.onClose(() => {
      if (!this.hasExited && !this.stopping) killTree(child);
    });
  }

  onEnd(listener: (end: WorkerEnd) => void): void {
    if (this.end) listener(this.end);
    else this.endListeners.push(listener);
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    if (!this.hasExited) await this.client.requestStop(CLOSE_TIMEOUT_MS);
    this.client.fail(new WorkerStoppedError());
    this.channel.end();
    if (this.hasExited) {
      // The worker is gone, but a program its tool started may still run in its group.
      if (process.platform !== 'win32') signalGroup(this.pid, 'SIGKILL');
      return;
    }
    killTree(this.child);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.exited,
      new Promise((resolve) => (timer = setTimeout(resolve, EXIT_DEADLINE_MS))),
    ]);
    clearTimeout(timer);
  }

  private async ended(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    // Nobody is left to stop what the crashed tool started.
    if (process.platform !== 'win32') signalGroup(this.pid, 'SIGKILL');
    await this.tail.settle(DRAIN_MS);
    const end: WorkerEnd = {
      pid: this.pid,
      how: signal ? `was killed by signal ${signal}` : `exited with code ${code}`,
      output: this.tail.text(),
    };
    this.end = end;
    this.client.fail(new WorkerGoneError(end));
    for (const listener of this.endListeners.splice(0)) listener(end);
  }
}
