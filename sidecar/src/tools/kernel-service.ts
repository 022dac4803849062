import type { ExecutionResult, VariableInfo } from '../kernels/kernel-types';

/**
 * What the kernel tools need of a session's Python kernels. The agent provides it, bound to the session
 * and the turn, so the tools know nothing of the manager, the journal or where events go.
 */
export interface KernelToolService {
  /** Runs a cell; aborting `signal` interrupts it (and kills the kernel if it does not stop). */
  execute(
    kernel: string,
    code: string,
    call: { toolCallId: string; signal: AbortSignal },
  ): Promise<ExecutionResult>;
  /** Clears the user's variables. */
  reset(kernel: string): Promise<void>;
  listVariables(kernel: string): Promise<VariableInfo[]>;
}
