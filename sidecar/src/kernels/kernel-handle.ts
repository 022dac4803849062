import { randomBytes } from 'node:crypto';
import type { MimeBundle, ResultMessage, VariableInfo } from './driver-messages';
import type { ExitInfo } from './kernel-exit';

/** What a running cell reports as it goes, and how its caller interrupts it. */
export interface ExecuteCallbacks {
  onStream?: (name: 'stdout' | 'stderr', text: string) => void;
  onDisplay?: (data: MimeBundle) => void;
  onInputRequest?: (request: { requestId: string; prompt: string; password: boolean }) => void;
  /** Aborting interrupts the cell (KeyboardInterrupt); escalation is the caller's business. */
  signal?: AbortSignal;
  /**
   * The cell's CAIRN_TOOL_TOKEN (an agent's cell: its tool call's script token), set only while it runs.
   * Kernels on a Jupyter Server get none.
   */
  toolToken?: string;
}

/** What a kernel said when it was ready. */
export interface KernelReadyInfo {
  /** The interpreter's version (`3.11.7`). */
  python: string;
  implementation: string;
  ipython: boolean;
}

/**
 * One running kernel, wherever it runs: a local driver process (KernelProcess) or a kernel on a Jupyter
 * Server (JupyterKernel). The manager, the warm pool and a cell's limits work through this alone.
 * One execution at a time; the manager queues.
 */
export interface KernelHandle {
  /** The local process, or null when the kernel runs elsewhere. */
  readonly pid: number | null;
  /** The Jupyter Server's base URL, or null for a local kernel. */
  readonly server: string | null;
  readonly ready: KernelReadyInfo;
  readonly isAlive: boolean;
  readonly exited: Promise<ExitInfo>;
  /** Resolves with the cell's result; rejects with KernelExitedError when the kernel goes away. */
  /** `id` names the execution in the kernel's messages (the manager passes its execution id). */
  execute(code: string, callbacks?: ExecuteCallbacks, id?: string): Promise<ResultMessage>;
  reply(requestId: string, value: string): void;
  /** Raises KeyboardInterrupt in the running cell; escalation is the caller's business. */
  interrupt(): void;
  reset(): Promise<void>;
  listVariables(): Promise<VariableInfo[]>;
  /** Asks the kernel to end, then forces it after `graceMs`. */
  shutdown(graceMs?: number): Promise<ExitInfo>;
  /** Ends the kernel at once (a local process group is killed). */
  kill(): Promise<ExitInfo>;
  onExit(listener: (exit: ExitInfo) => void): void;
}

/** An id for an execution or input request, unique enough to tell one kernel's requests apart. */
export function newRequestId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
