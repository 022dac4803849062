import type { ExecutionResult, VariableInfo } from '../kernels/kernel-types';

/** One execute_code call as the kernel service runs it. */
export interface KernelToolCall {
  toolCallId: string;
  /** Aborting interrupts the cell (and kills the kernel if it does not stop). */
  signal: AbortSignal;
  /** The call's script token: the cell's CAIRN_TOOL_TOKEN while it runs (local kernels). */
  toolToken?: string;
  /** Active execution time allowed, Infinity for none; absent: the kernel's default. */
  activeMs?: number;
  /** The cell's output as it streams (the journal gets it as `kernel.stream` events already). */
  onStream?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/**
 * What the kernel tools need of a session's Python kernels. The agent provides it, bound to the session
 * and the turn, so the tools know nothing of the manager, the journal or where events go.
 */
export interface KernelToolService {
  /** Runs a cell after those queued before it on the same kernel. */
  execute(kernel: string, code: string, call: KernelToolCall): Promise<ExecutionResult>;
  /** Clears the user's variables. */
  reset(kernel: string): Promise<void>;
  listVariables(kernel: string): Promise<VariableInfo[]>;
}
