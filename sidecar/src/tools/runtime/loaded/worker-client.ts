import type { Logger } from '../../../log/logger';
import type { ToWorker, WorkerChannel, WorkerToolDescription } from './worker-protocol';

/** How a method call ended, as the worker told it. */
export type CallOutcome =
  | { status: 'completed'; value: unknown }
  | { status: 'failed'; error: string }
  /** `stopped`: the worker confirmed the method ended; false when it did not within the grace period. */
  | { status: 'cancelled'; stopped: boolean };

export interface MethodCall {
  method: string;
  arguments: Record<string, unknown>;
  unionId: string | null;
  callId: string;
}

/** The module could not be loaded: the worker's own words (an import error, a missing factory, ...). */
export class WorkerLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerLoadError';
  }
}

interface PendingCall {
  onItem: (text: string) => void;
  resolve: (outcome: CallOutcome) => void;
  reject: (err: Error) => void;
  cancelled: boolean;
}

/**
 * Cairn's side of the worker protocol (worker-protocol.ts) over any channel: loads the tool, runs calls at
 * once by id, cancels them, and fails every call, running and later, once the worker is gone.
 *
 * A cancelled call ends for Cairn as soon as the worker confirms, or after `cancelGraceMs` if it does not:
 * the method then runs on unseen (its answer is dropped), because ending the worker would also end its other
 * calls and lose the tool's state for one method that is slow to notice.
 */
export class WorkerClient {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  /** Cancelled calls that ran past their grace: their late answers are expected and dropped. */
  private readonly abandoned = new Set<number>();
  private loading: { resolve: (tool: WorkerToolDescription) => void; reject: (err: Error) => void } | null =
    null;
  private closing: (() => void) | null = null;
  private failure: Error | null = null;
  /** Whether the tool loaded: before, there is no close() to run on stop. */
  private loaded = false;

  constructor(
    private readonly channel: WorkerChannel,
    private readonly options: { cancelGraceMs: number; logger: Logger },
  ) {
    channel.onMessage((message) => {
      switch (message.type) {
        case 'loaded':
          this.loaded = true;
          this.loading?.resolve(message.tool);
          this.loading = null;
          break;
        case 'load_error':
          this.loading?.reject(new WorkerLoadError(message.message));
          this.loading = null;
          break;
        case 'item': {
          const call = this.pending.get(message.id);
          if (call && !call.cancelled) call.onItem(message.text);
          break;
        }
        case 'done':
          this.finish(message.id, message);
          break;
        case 'closed':
          this.closing?.();
          break;
      }
    });
  }

  /** Loads the module in the worker; rejects with a WorkerLoadError, or the failure of a worker that ended. */
  load(request: Omit<Extract<ToWorker, { type: 'load' }>, 'type'>): Promise<WorkerToolDescription> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.loading = { resolve, reject };
      this.channel.send({ type: 'load', ...request });
    });
  }

  /** Runs a method; `onItem` gets a stream method's pieces as they come (none after a cancel). */
  call(call: MethodCall, signal: AbortSignal, onItem: (text: string) => void): Promise<CallOutcome> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal.aborted) return Promise.resolve({ status: 'cancelled', stopped: true });
    const id = this.nextId++;
    return new Promise<CallOutcome>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        pending.cancelled = true;
        this.channel.send({ type: 'cancel', id });
        timer = setTimeout(() => {
          if (!this.pending.has(id)) return;
          this.pending.delete(id);
          this.abandoned.add(id);
          this.options.logger.warn('a cancelled loaded-tool method did not stop; it runs on in its worker', {
            method: call.method,
            call_id: call.callId,
          });
          resolve({ status: 'cancelled', stopped: false });
        }, this.options.cancelGraceMs);
      };
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const pending: PendingCall = {
        onItem,
        cancelled: false,
        resolve: (outcome) => {
          settle();
          resolve(outcome);
        },
        reject: (err) => {
          settle();
          reject(err);
        },
      };
      this.pending.set(id, pending);
      signal.addEventListener('abort', onAbort, { once: true });
      this.channel.send({
        type: 'call',
        id,
        method: call.method,
        arguments: call.arguments,
        union_id: call.unionId,
        call_id: call.callId,
      });
    });
  }

  /** Asks the worker to run the tool's close() and waits for it, at most `timeoutMs`. */
  requestStop(timeoutMs: number): Promise<void> {
    if (this.failure || !this.loaded) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.closing = done;
      this.channel.send({ type: 'stop' });
    });
  }

  /** The worker is gone (or stopped): the load and every call, running and later, fail with `error`. */
  fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.loading?.reject(error);
    this.loading = null;
    this.closing?.();
    for (const call of [...this.pending.values()]) call.reject(error);
    this.pending.clear();
  }

  private finish(id: number, done: { value: unknown; error: string | null; cancelled: boolean }): void {
    const call = this.pending.get(id);
    if (!call) {
      if (!this.abandoned.delete(id))
        this.options.logger.warn('a loaded tool worker answered an unknown call', { id });
      return;
    }
    this.pending.delete(id);
    if (call.cancelled || done.cancelled) call.resolve({ status: 'cancelled', stopped: true });
    else if (done.error !== null) call.resolve({ status: 'failed', error: done.error });
    else call.resolve({ status: 'completed', value: done.value });
  }
}
