import type { WorkerClient } from './worker-client';

/** How a worker process ended unexpectedly: the facts a crash message is made of. */
export interface WorkerEnd {
  pid: number;
  /** `exited with code 3`, `was killed by signal SIGKILL`. */
  how: string;
  /** Its last lines of stderr (and a JavaScript tool's stdout), oldest first; may be empty. */
  output: string;
}

/** A worker's end, carried by every call that fails because of it. */
export class WorkerGoneError extends Error {
  constructor(readonly end: WorkerEnd) {
    super(`The worker (pid ${end.pid}) ${end.how}.`);
    this.name = 'WorkerGoneError';
  }
}

/** Calls made after stop(). */
export class WorkerStoppedError extends Error {
  constructor() {
    super('The worker was stopped.');
    this.name = 'WorkerStoppedError';
  }
}

/**
 * Where a loaded tool runs: a process of its own, or the sidecar. Both speak the worker protocol through
 * `client`, so calls, results and cancellation are the same.
 */
export interface ToolWorker {
  readonly client: WorkerClient;
  /** The worker process's id; null in the sidecar. */
  readonly pid: number | null;
  /** Called once if the worker ends without being stopped; its calls have failed with WorkerGoneError. */
  onEnd(listener: (end: WorkerEnd) => void): void;
  /** Runs the tool's close(), then ends the worker and everything it started. Idempotent. */
  stop(): Promise<void>;
}
