import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { type Logger, silentLogger } from '../log/logger';
import { signalGroup, signalGroupExceptLeader, taskkillTree } from '../process/process-group';
import {
  clip,
  DRIVER_PROTOCOL_VERSION,
  type DriverMessage,
  encodeHostMessage,
  type HostMessage,
  messageHead,
  outputTooLargeResult,
  parseDriverLine,
  protocolErrorResult,
  type ReadyMessage,
  type ResultMessage,
  type StreamHeader,
  type VariableInfo,
} from './driver-messages';
import { type DriverSpawnOptions, spawnDriver } from './driver-spawn';
import { describeExit, type ExitInfo, KernelExitedError } from './kernel-exit';
import { type ExecuteCallbacks, type KernelHandle, newRequestId } from './kernel-handle';
import { LineFramer, MAX_LINE_BYTES } from './line-framer';
import { utf8Pieces } from './utf8-pieces';

export interface KernelProcessOptions extends DriverSpawnOptions {
  readyTimeoutMs?: number;
  logger?: Logger;
  /** The longest message line accepted from the driver (tests lower it). */
  maxLineBytes?: number;
}

const DEFAULT_READY_TIMEOUT_MS = 30_000;
const STDERR_TAIL_CHARS = 8_000;
/** After 'exit', how long to wait for the channel to close so the last messages are still read. */
const CLOSE_DRAIN_MS = 500;
/** After a kill, the latest we consider the process gone even without an 'exit' event. */
const KILL_DEADLINE_MS = 3_000;

interface PendingExecution {
  id: string;
  callbacks: ExecuteCallbacks;
  /** Set when one of its displays was over the line limit: its result is then replaced by an error. */
  overflow?: string;
  resolve: (result: ResultMessage) => void;
  reject: (err: Error) => void;
}

interface PendingRequest {
  resolve: (message: DriverMessage) => void;
  reject: (err: Error) => void;
}

/**
 * One running driver: spawns it in its own process group, speaks the driver protocol (driver-messages.ts)
 * on its original stdin/stdout, and reports its exit. One execution at a time (the manager queues).
 */
export class KernelProcess implements KernelHandle {
  readonly pid: number;
  /** A local process: no Jupyter Server. */
  readonly server = null;
  /** Resolves once, when the process has exited and its channel is drained. */
  readonly exited: Promise<ExitInfo>;
  private info: ReadyMessage | null = null;
  private current: PendingExecution | null = null;
  private readonly requests = new Map<string, PendingRequest>();
  private readonly exitListeners: ((exit: ExitInfo) => void)[] = [];
  private exitInfo: ExitInfo | null = null;
  private requested: ExitInfo['requested'] = null;
  private stderrTail = '';
  private readonly logger: Logger;
  private resolveExited!: (exit: ExitInfo) => void;
  private onReady: ((message: ReadyMessage) => void) | null = null;
  /** The stream whose text (the channel's raw payload) is being read. */
  private streamHeader: StreamHeader | null = null;

  private constructor(
    private readonly child: ChildProcess,
    logger: Logger,
    private readonly maxLineBytes: number,
    /** The group's leader is a sandbox's monitor (bwrap): an interrupt skips it (SIGINT would end it all). */
    private readonly leaderIsMonitor = false,
  ) {
    this.pid = child.pid!;
    this.logger = logger.child({ kernel_pid: this.pid });
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
    this.wire();
  }

  /** Starts a driver and waits for its `ready`; kills it and throws when it does not come. */
  static async start(opts: KernelProcessOptions): Promise<KernelProcess> {
    const { child, leaderIsMonitor } = await spawnDriver(opts);
    const kernel = new KernelProcess(
      child,
      opts.logger ?? silentLogger,
      opts.maxLineBytes ?? MAX_LINE_BYTES,
      leaderIsMonitor,
    );
    await kernel.waitReady(opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
    return kernel;
  }

  /** What the driver said at start-up: Python version, whether IPython is in use. */
  get ready(): ReadyMessage {
    return this.info!;
  }

  get isAlive(): boolean {
    return this.exitInfo === null;
  }

  get isBusy(): boolean {
    return this.current !== null;
  }

  /** The driver's own recent stderr. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** Runs a cell; resolves with the driver's `result`, rejects with KernelExitedError if the driver exits. */
  execute(code: string, callbacks: ExecuteCallbacks = {}, id = newRequestId('exec')): Promise<ResultMessage> {
    if (this.exitInfo) return Promise.reject(new KernelExitedError(this.exitInfo));
    if (this.current) return Promise.reject(new Error('The kernel is already running a cell.'));
    return new Promise<ResultMessage>((resolve, reject) => {
      const onAbort = () => this.interrupt();
      const done = () => {
        this.current = null;
        callbacks.signal?.removeEventListener('abort', onAbort);
      };
      this.current = {
        id,
        callbacks,
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      this.send({
        type: 'execute',
        id,
        code,
        ...(callbacks.toolToken ? { tool_token: callbacks.toolToken } : {}),
      });
      if (callbacks.signal?.aborted) onAbort();
      else callbacks.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers an `input_request`. */
  reply(requestId: string, value: string): void {
    this.send({ type: 'input_reply', request_id: requestId, value });
  }

  /** Raises KeyboardInterrupt in the running cell: SIGINT to the process group on POSIX, a message on Windows. */
  interrupt(): void {
    if (this.exitInfo) return;
    if (process.platform !== 'win32') {
      if (this.leaderIsMonitor) {
        if (signalGroupExceptLeader(this.pid, 'SIGINT')) return;
      } else {
        try {
          process.kill(-this.pid, 'SIGINT');
          return;
        } catch {
          // The group is gone or not ours to signal; the message is the driver's own fallback.
        }
      }
    }
    this.send({ type: 'interrupt' });
  }

  async reset(): Promise<void> {
    const id = newRequestId('reset');
    await this.request(id, { type: 'reset', id });
  }

  async listVariables(): Promise<VariableInfo[]> {
    const id = newRequestId('vars');
    const message = await this.request(id, { type: 'list_variables', id });
    return message.type === 'variables' ? message.variables : [];
  }

  /** Asks the driver to exit, then kills the process group after `graceMs` (and sweeps it anyway). */
  async shutdown(graceMs = 2_000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.requested ??= 'shutdown';
    this.send({ type: 'shutdown' });
    const exit = await Promise.race([this.exited, delay(graceMs).then(() => null)]);
    if (exit) {
      // Children the cells started share the group; they go with the kernel.
      this.signalGroup('SIGKILL');
      return exit;
    }
    return this.kill();
  }

  /** Kills the driver and everything in its process group at once. */
  async kill(): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.requested ??= 'kill';
    if (process.platform === 'win32') {
      void taskkillTree(this.pid).then((ran) => ran || this.child.kill());
    } else if (!this.signalGroup('SIGKILL')) {
      this.child.kill('SIGKILL');
    }
    const exit = await Promise.race([this.exited, delay(KILL_DEADLINE_MS).then(() => null)]);
    // A process stuck in the OS's kernel may never report; treat it as gone rather than hang the caller.
    return exit ?? this.finish(null, 'SIGKILL');
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    if (this.exitInfo) listener(this.exitInfo);
    else this.exitListeners.push(listener);
  }

  private waitReady(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const fail = (why: string) => {
        clearTimeout(timer);
        this.onReady = null;
        const stderr = this.stderrTail.trim();
        reject(
          new Error(
            `The Python kernel did not start: ${why}.${stderr ? ` Its error output:\n${stderr}` : ''}`,
          ),
        );
      };
      this.onReady = (message) => {
        clearTimeout(timer);
        this.onReady = null;
        if (message.protocol !== DRIVER_PROTOCOL_VERSION) {
          void this.kill();
          fail(`its driver speaks protocol ${message.protocol}, this sidecar ${DRIVER_PROTOCOL_VERSION}`);
          return;
        }
        this.info = message;
        resolve();
      };
      timer = setTimeout(() => {
        void this.kill();
        fail(`no ready message within ${Math.round(timeoutMs / 1000)} s`);
      }, timeoutMs);
      this.onExit((exit) => {
        if (this.onReady) fail(`it exited at start-up (${describeExit(exit)})`);
      });
    });
  }

  private request(id: string, message: HostMessage): Promise<DriverMessage> {
    if (this.exitInfo) return Promise.reject(new KernelExitedError(this.exitInfo));
    return new Promise((resolve, reject) => {
      this.requests.set(id, { resolve, reject });
      this.send(message);
    });
  }

  private send(message: HostMessage): void {
    if (this.exitInfo || !this.child.stdin?.writable) return;
    this.child.stdin.write(encodeHostMessage(message));
  }

  private wire(): void {
    // Lines and payloads are framed as bytes and decoded whole: a character split across chunks is never cut.
    const framer = new LineFramer(
      {
        onLine: (bytes) => {
          const line = bytes.toString('utf8').trim();
          if (line === '') return;
          const header = this.handleLine(line);
          if (header) {
            this.streamHeader = header;
            framer.readPayload(header.bytes);
          }
        },
        onPayload: (payload) => this.handleStream(payload),
        onOverflow: (head, bytes) => this.handleOverflow(head.toString('utf8'), bytes),
        onTruncated: (head, bytes) =>
          this.logger.warn('kernel driver channel ended inside a message; dropped it', {
            received_bytes: bytes,
            head: clip(head.toString('utf8'), 200),
          }),
      },
      this.maxLineBytes,
    );
    this.child.stdout!.on('data', (chunk: Buffer) => framer.push(chunk));
    this.child.stdout!.on('end', () => framer.end());
    const stderrDecoder = new StringDecoder('utf8');
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + stderrDecoder.write(chunk)).slice(-STDERR_TAIL_CHARS);
    });
    // A write to a driver that just died fails with EPIPE; its exit is reported through 'exit'.
    this.child.stdin!.on('error', () => {});
    // A failed signal is reported as 'error' on the child; unheard, it would take the sidecar down.
    this.child.on('error', (err) => this.logger.warn('kernel process error', { error: String(err) }));
    let drain: NodeJS.Timeout | undefined;
    this.child.on('exit', (code, signal) => {
      drain = setTimeout(() => this.finish(code, signal), CLOSE_DRAIN_MS);
    });
    this.child.on('close', (code, signal) => {
      clearTimeout(drain);
      this.finish(code, signal);
    });
  }

  /** A stream's text: the payload after its header. */
  private handleStream(payload: Buffer): void {
    const header = this.streamHeader!;
    this.streamHeader = null;
    const onStream =
      this.current && header.id === this.current.id ? this.current.callbacks.onStream : undefined;
    if (!onStream) return;
    for (const text of utf8Pieces(payload)) onStream(header.name, text);
  }

  /** Acts on one message line; a stream header is returned instead, for its payload to follow. */
  private handleLine(line: string): StreamHeader | undefined {
    const parsed = parseDriverLine(line);
    if (!parsed.ok) {
      this.logger.warn('kernel driver sent a bad line', { problem: parsed.problem, line: clip(line) });
      const raw = parsed.raw as { type?: unknown; id?: unknown } | undefined;
      // A result we cannot read still ends its execution, or the caller would wait forever.
      if (raw?.type === 'result' && this.current && raw.id === this.current.id) {
        this.current.resolve(protocolErrorResult(this.current.id, parsed.problem));
      }
      return;
    }
    const message = parsed.message;
    if (parsed.dropped.length > 0) {
      this.logger.warn('kernel driver sent MIME types it does not emit; dropped them', {
        message_type: message.type,
        mime_types: parsed.dropped,
      });
    }
    // Only the running execution's own messages reach its caller: user code can write to the channel too.
    const current = this.current && 'id' in message && message.id === this.current.id ? this.current : null;
    switch (message.type) {
      case 'ready':
        this.onReady?.(message);
        return;
      case 'stream':
        return message;
      case 'display':
        // Empty once the forms the driver never sends are dropped: nothing to show.
        if (Object.keys(message.data).length > 0) current?.callbacks.onDisplay?.(message.data);
        return;
      case 'input_request':
        current?.callbacks.onInputRequest?.(message);
        return;
      case 'result':
        if (current?.overflow)
          current.resolve(outputTooLargeResult(current.id, current.overflow, this.maxLineBytes));
        else current?.resolve(message);
        return;
      case 'reset_done':
      case 'variables': {
        const request = this.requests.get(message.id);
        this.requests.delete(message.id);
        request?.resolve(message);
        return;
      }
      case 'log':
        this.logger.warn('kernel driver log', {
          level: clip(message.level, 40),
          message: clip(message.message),
        });
        return;
    }
  }

  /**
   * A line (or a stream's text) over the limit was dropped; its head names the message. A result ends its
   * execution; a display fails the execution when its result comes, so host and driver stay in step and the
   * kernel stays usable. The driver never sends stream text that large: it is only logged.
   */
  private handleOverflow(head: string, bytes: number): void {
    const { type, id } = messageHead(head);
    this.logger.warn('kernel driver sent a message over the size limit; dropped it', {
      limit_bytes: this.maxLineBytes,
      line_bytes: bytes,
      message_type: type ?? null,
      head: clip(head, 200),
    });
    const current = this.current && id === this.current.id ? this.current : null;
    if (current && type === 'result')
      current.resolve(outputTooLargeResult(current.id, 'result', this.maxLineBytes));
    else if (current && type === 'display') current.overflow = 'display output';
    const request = id === undefined ? undefined : this.requests.get(id);
    if (request) {
      this.requests.delete(id!);
      request.reject(new Error(`The kernel driver's reply was larger than ${this.maxLineBytes} bytes.`));
    }
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): ExitInfo {
    if (this.exitInfo) return this.exitInfo;
    const exit: ExitInfo = { code, signal, stderrTail: this.stderrTail, requested: this.requested };
    this.exitInfo = exit;
    // Whatever the cells left running in the group goes with the kernel.
    this.signalGroup('SIGKILL');
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    const error = new KernelExitedError(exit);
    this.current?.reject(error);
    for (const request of this.requests.values()) request.reject(error);
    this.requests.clear();
    this.resolveExited(exit);
    for (const listener of this.exitListeners.splice(0)) listener(exit);
    return exit;
  }

  private signalGroup(signal: NodeJS.Signals): boolean {
    return process.platform !== 'win32' && signalGroup(this.pid, signal);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
