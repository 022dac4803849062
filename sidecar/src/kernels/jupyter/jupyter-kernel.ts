import { type Kernel, KernelAPI, KernelConnection, type KernelMessage } from '@jupyterlab/services';
import { type Logger, silentLogger } from '../../log/logger';
import {
  type ErrorDetails,
  kernelError,
  type MimeBundle,
  type ResultMessage,
  type VariableInfo,
} from '../driver-messages';
import { type ExitInfo, KernelExitedError } from '../kernel-exit';
import {
  type ExecuteCallbacks,
  type KernelHandle,
  type KernelReadyInfo,
  newRequestId,
} from '../kernel-handle';
import {
  errorDetails,
  parseVariables,
  RESET_CODE,
  toMimeBundle,
  VARIABLES_EXPRESSION,
} from './jupyter-outputs';
import { describeServerError, type JupyterServerAddress, makeServerSettings } from './server-connection';
import { TOOLS_STUB_CODE } from './tools-stub';

export interface JupyterKernelOptions extends JupyterServerAddress {
  /** The kernelspec on the server (default `python3`). */
  kernelName?: string;
  readyTimeoutMs?: number;
  logger?: Logger;
}

const DEFAULT_READY_TIMEOUT_MS = 60_000;
const DEAD_KERNEL_DELETE_ATTEMPTS = 20;
const DEAD_KERNEL_DELETE_RETRY_MS = 500;

interface PendingExecution {
  id: string;
  callbacks: ExecuteCallbacks;
  future: Kernel.IShellFuture<KernelMessage.IExecuteRequestMsg, KernelMessage.IExecuteReplyMsg>;
  /** The kernel said it is busy with this cell: an interrupt now reaches the cell. */
  running: boolean;
  /** Interrupted before it ran: sent once it runs (ipykernel drops a SIGINT that comes while it is idle). */
  interruptPending: boolean;
  reject: (err: Error) => void;
}

/**
 * A kernel on a Jupyter Server, driven through @jupyterlab/services with the same methods and callbacks as
 * KernelProcess (the local driver), so the manager can run either. One execution at a time.
 */
export class JupyterKernel implements KernelHandle {
  /** No local process: the kernel runs on the server. */
  readonly pid = null;
  /** The server's base URL. */
  readonly server: string;
  readonly exited: Promise<ExitInfo>;
  private info: KernelReadyInfo | null = null;
  /** The kernel's language (`python`), from its kernel_info. */
  private language = '';
  private current: PendingExecution | null = null;
  /** Open `input()` requests by our id: the stdin message they answer. */
  private readonly inputs = new Map<string, KernelMessage.IHeader<'input_request'>>();
  private readonly exitListeners: ((exit: ExitInfo) => void)[] = [];
  private exitInfo: ExitInfo | null = null;
  private requested: ExitInfo['requested'] = null;
  private resolveExited!: (exit: ExitInfo) => void;

  private constructor(
    private readonly kernel: Kernel.IKernelConnection,
    private readonly baseUrl: string,
    private readonly logger: Logger,
  ) {
    this.server = baseUrl;
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
    kernel.statusChanged.connect((_sender, status) => this.onStatus(status));
  }

  /** Starts a kernel on the server and waits until it answers kernel_info; shuts it down if it does not. */
  static async start(opts: JupyterKernelOptions): Promise<JupyterKernel> {
    const serverSettings = makeServerSettings(opts);
    const baseUrl = serverSettings.baseUrl;
    let model: Kernel.IModel;
    try {
      model = await KernelAPI.startNew({ name: opts.kernelName ?? 'python3' }, serverSettings);
    } catch (err) {
      throw describeServerError(err, baseUrl);
    }
    const connection = new KernelConnection({ model, serverSettings, handleComms: false });
    const kernel = new JupyterKernel(
      connection,
      baseUrl,
      (opts.logger ?? silentLogger).child({ kernel_id: model.id }),
    );
    const timeoutMs = opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = await Promise.race([
        connection.info,
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
            timeoutMs,
          );
        }),
      ]);
      kernel.info = {
        python: reply.language_info.version ?? '',
        implementation: reply.implementation,
        ipython: reply.implementation === 'ipython',
      };
      kernel.language = reply.language_info.name;
    } catch (err) {
      await kernel.kill();
      throw new Error(
        `The kernel on the Jupyter server at ${baseUrl} did not start: ${err instanceof Error ? err.message : String(err)}.`,
        { cause: err },
      );
    } finally {
      clearTimeout(timer);
    }
    await kernel.installToolsStub();
    return kernel;
  }

  /** The server's id for this kernel (`/api/kernels/{id}`). */
  get id(): string {
    return this.kernel.id;
  }

  get ready(): KernelReadyInfo {
    return this.info!;
  }

  get isAlive(): boolean {
    return this.exitInfo === null;
  }

  get isBusy(): boolean {
    return this.current !== null;
  }

  /** Runs a cell; resolves with a result shaped like the local driver's, rejects if the kernel goes away. */
  execute(code: string, callbacks: ExecuteCallbacks = {}, id = newRequestId('exec')): Promise<ResultMessage> {
    if (this.exitInfo) return Promise.reject(new KernelExitedError(this.exitInfo));
    if (this.current) return Promise.reject(new Error('The kernel is already running a cell.'));
    const started = performance.now();
    const future = this.kernel.requestExecute({
      code,
      silent: false,
      store_history: true,
      allow_stdin: true,
      // Cells go one at a time; with true, ipykernel aborts a cell sent within ~0.1 s after an error.
      stop_on_error: false,
    });
    let returnValue: MimeBundle | null = null;
    let error: ErrorDetails | null = null;
    future.onIOPub = (msg) => {
      const content = msg.content as Record<string, unknown>;
      switch (msg.header.msg_type) {
        case 'status':
          if (content.execution_state === 'busy') this.onCellRunning(future);
          return;
        case 'stream':
          callbacks.onStream?.(content.name === 'stderr' ? 'stderr' : 'stdout', String(content.text ?? ''));
          return;
        case 'display_data':
        case 'update_display_data':
          callbacks.onDisplay?.(toMimeBundle(content.data));
          return;
        case 'execute_result':
          returnValue = toMimeBundle(content.data);
          return;
        case 'error':
          error = errorOf(content);
      }
    };
    future.onStdin = (msg) => {
      if (!KernelMessageGuards.isInputRequest(msg)) return;
      const requestId = newRequestId('input');
      this.inputs.set(requestId, msg.header);
      callbacks.onInputRequest?.({
        requestId,
        prompt: msg.content.prompt,
        password: msg.content.password,
      });
    };
    return new Promise<ResultMessage>((resolve, reject) => {
      const onAbort = () => this.interrupt();
      const done = () => {
        this.current = null;
        this.inputs.clear();
        callbacks.signal?.removeEventListener('abort', onAbort);
      };
      this.current = {
        id,
        callbacks,
        future,
        running: false,
        interruptPending: false,
        reject: (err) => {
          done();
          reject(err);
        },
      };
      future.done.then(
        (reply) => {
          if (this.current?.future !== future) return;
          done();
          const content = reply.content;
          const status = content.status;
          if (status === 'error' && !error) error = errorOf(content as unknown as Record<string, unknown>);
          if (status === 'aborted') error ??= kernelError('ExecutionAborted', 'The kernel aborted the cell.');
          resolve({
            type: 'result',
            id,
            success: status === 'ok',
            returnValue: status === 'ok' ? returnValue : null,
            error: status === 'ok' ? null : error,
            executionTimeMs: performance.now() - started,
          });
        },
        (err: unknown) => {
          if (this.current?.future !== future) return;
          this.current.reject(
            this.exitInfo ? new KernelExitedError(this.exitInfo) : describeServerError(err, this.baseUrl),
          );
        },
      );
      if (callbacks.signal?.aborted) onAbort();
      else callbacks.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers an `input_request` of the running cell. */
  reply(requestId: string, value: string): void {
    const parent = this.inputs.get(requestId);
    if (!parent || this.exitInfo) return;
    this.inputs.delete(requestId);
    this.kernel.sendInputReply({ status: 'ok', value }, parent);
  }

  /** Raises KeyboardInterrupt in the running cell (the server signals the kernel: REST, not a message). */
  interrupt(): void {
    if (this.exitInfo) return;
    if (this.current && !this.current.running) {
      this.current.interruptPending = true;
      return;
    }
    this.sendInterrupt();
  }

  private onCellRunning(future: PendingExecution['future']): void {
    const current = this.current;
    if (current?.future !== future || current.running) return;
    current.running = true;
    if (current.interruptPending) this.sendInterrupt();
  }

  private sendInterrupt(): void {
    this.kernel.interrupt().catch((err: unknown) =>
      this.logger.warn('could not interrupt a Jupyter kernel', {
        error: describeServerError(err, this.baseUrl).message,
      }),
    );
  }

  /** Restarts the kernel on the server (same id, fresh namespace); a running cell ends with an error. */
  async restart(): Promise<void> {
    if (this.exitInfo) throw new KernelExitedError(this.exitInfo);
    try {
      await this.kernel.restart();
      // The new process's kernel_info answer: it is listening again before the next cell is sent.
      await this.kernel.info;
    } catch (err) {
      throw describeServerError(err, this.baseUrl);
    }
    await this.installToolsStub();
  }

  async reset(): Promise<void> {
    const reply = await this.quiet(RESET_CODE, {});
    if (reply.status !== 'ok') throw new Error('Resetting the kernel failed.');
  }

  async listVariables(): Promise<VariableInfo[]> {
    const reply = await this.quiet('', { variables: VARIABLES_EXPRESSION });
    if (reply.status !== 'ok') return [];
    return parseVariables(reply.user_expressions.variables);
  }

  /** Shuts the kernel down on the server (DELETE /api/kernels/{id}) and closes the connection. */
  async shutdown(_graceMs?: number): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.requested ??= 'shutdown';
    try {
      await this.kernel.shutdown();
    } catch (err) {
      this.logger.warn('could not shut a Jupyter kernel down', {
        error: describeServerError(err, this.baseUrl).message,
      });
    }
    return this.finish();
  }

  /** Nothing to kill locally: the same as shutdown. */
  kill(): Promise<ExitInfo> {
    this.requested ??= 'kill';
    return this.shutdown();
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    if (this.exitInfo) listener(this.exitInfo);
    else this.exitListeners.push(listener);
  }

  /** Makes `cairn_tools` say that it cannot work here (tools-stub.ts); best effort: the kernel works without. */
  private async installToolsStub(): Promise<void> {
    if (this.language !== 'python') return;
    const status = await this.quiet(TOOLS_STUB_CODE, {}).then(
      (r) => r.status,
      (err: unknown) => String(err),
    );
    if (status !== 'ok') this.logger.warn('the cairn_tools stand-in failed in a Jupyter kernel', { status });
  }

  /** A silent execution of our own (no history, no outputs), for reset and the variable listing. */
  private async quiet(
    code: string,
    userExpressions: Record<string, string>,
  ): Promise<KernelMessage.IExecuteReplyMsg['content'] & { user_expressions: Record<string, unknown> }> {
    if (this.exitInfo) throw new KernelExitedError(this.exitInfo);
    if (this.current) throw new Error('The kernel is already running a cell.');
    const future = this.kernel.requestExecute({
      code,
      silent: true,
      store_history: false,
      allow_stdin: false,
      user_expressions: userExpressions,
    });
    const reply = await future.done;
    return reply.content as KernelMessage.IExecuteReplyMsg['content'] & {
      user_expressions: Record<string, unknown>;
    };
  }

  /**
   * A kernel that died is gone for this object: the server's own auto-restart would bring back an empty
   * namespace behind the caller's back, so it is removed and the manager starts (and reports) a new one.
   */
  private onStatus(status: Kernel.Status): void {
    if (this.exitInfo || this.requested) return;
    if (status === 'dead' || status === 'autorestarting') {
      this.logger.warn('a Jupyter kernel died', { status });
      this.finish(false);
      void this.removeDeadKernel();
    }
  }

  /**
   * DELETE by REST (the connection's shutdown() skips the server once it saw 'dead'). Jupyter Server 1.23
   * answers 500 while its auto-restart is under way, so this retries until the kernel is gone (204/404).
   */
  private async removeDeadKernel(): Promise<void> {
    const { id, serverSettings } = this.kernel;
    for (let attempt = 1; attempt <= DEAD_KERNEL_DELETE_ATTEMPTS; attempt++) {
      try {
        await KernelAPI.shutdownKernel(id, serverSettings);
        break;
      } catch (err) {
        if (attempt === DEAD_KERNEL_DELETE_ATTEMPTS) {
          this.logger.warn('could not remove a dead Jupyter kernel from the server', {
            error: describeServerError(err, this.baseUrl).message,
          });
        } else {
          await delay(DEAD_KERNEL_DELETE_RETRY_MS);
        }
      }
    }
    // Only now: the library reconnects after an auto-restart, and a disposed connection makes that throw.
    this.kernel.dispose();
  }

  private finish(dispose = true): ExitInfo {
    if (this.exitInfo) return this.exitInfo;
    const exit: ExitInfo = { code: null, signal: null, stderrTail: '', requested: this.requested };
    this.exitInfo = exit;
    this.current?.reject(new KernelExitedError(exit));
    if (dispose) this.kernel.dispose();
    this.resolveExited(exit);
    for (const listener of this.exitListeners.splice(0)) listener(exit);
    return exit;
  }
}

const KernelMessageGuards = {
  isInputRequest(msg: KernelMessage.IStdinMessage): msg is KernelMessage.IInputRequestMsg {
    return msg.header.msg_type === 'input_request';
  },
};

function errorOf(content: Record<string, unknown>): ErrorDetails {
  const traceback = Array.isArray(content.traceback) ? content.traceback.map(String) : [];
  return errorDetails(String(content.ename ?? 'Error'), String(content.evalue ?? ''), traceback);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
