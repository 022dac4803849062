import type { ErrorCode } from '../errors';
import type { ErrorDetails, VariableInfo } from './driver-messages';

/** Time limits of one execution. */
export interface KernelLimits {
  /**
   * Active execution time per call; time spent waiting for `input()` does not count. Infinity: no limit
   * (a background execute_code without a timeout).
   */
  activeMs: number;
  /** How long one `input()` request may wait for its answer (Infinity: no limit). */
  inputIdleMs: number;
  /** After an interrupt, how long the cell gets to stop before the kernel is killed and restarted. */
  interruptGraceMs: number;
}

export const DEFAULT_LIMITS: KernelLimits = {
  activeMs: 120_000,
  inputIdleMs: 300_000,
  interruptGraceMs: 3_000,
};

/** A rich output saved as a file (images, HTML, ...); the UI fetches it by id. */
export interface SavedArtifact {
  id: string;
  path: string;
  mime: string;
  bytes: number;
}

/** A MIME bundle as the caller sees it: the plain text inline, everything else as files. */
export interface RichOutput {
  text: string | null;
  artifacts: SavedArtifact[];
}

export type LimitKind = 'active_time' | 'input_idle';

/** A limit that fired, and what it took to stop the cell. */
export interface LimitHit {
  kind: LimitKind;
  limitMs: number;
  action: 'interrupted' | 'killed_and_restarted';
}

/** How a kernel process ended, for results and events. */
export interface KernelExit {
  code: number | null;
  signal: string | null;
  stderrTail: string;
}

export interface ExecutionResult {
  executionId: string;
  kernel: string;
  success: boolean;
  stdout: string;
  stderr: string;
  returnValue: RichOutput | null;
  displays: RichOutput[];
  error: ErrorDetails | null;
  /** Wall time from the start of the cell to its result (waits for input included). */
  executionTimeMs: number;
  /** The part that counts against the active-time limit. */
  activeTimeMs: number;
  limit: LimitHit | null;
  /** Why the variables of earlier calls are gone (the kernel died or was restarted before this call). */
  stateLost: string | null;
  /** Set when the kernel process ended during this call (a crash, or a kill to enforce a limit). */
  kernelExit: KernelExit | null;
}

export type KernelState = 'not_started' | 'starting' | 'idle' | 'busy' | 'waiting_input' | 'dead';

export interface KernelInfo {
  name: string;
  state: KernelState;
  pid: number | null;
  python: string | null;
  ipython: boolean | null;
  executionCount: number;
}

export type { VariableInfo };

/** Why a kernel process was started. */
export type StartReason = 'first_use' | 'restart' | 'after_death' | 'after_limit';

/**
 * What the manager reports as it works, shaped for the session journal (snake_case wire fields; the journal
 * adds seq, session_id, turn_id and time). Each execution begins with `kernel.execution_started` and ends
 * with exactly one of `kernel.result` (the cell ran, well or not) or `kernel.error` (it could not run).
 */
export type KernelEvent =
  | {
      type: 'kernel.started';
      kernel: string;
      /** null for a kernel on a Jupyter Server. */
      pid: number | null;
      /** The Jupyter Server's base URL; null for a local kernel. */
      server: string | null;
      python: string;
      implementation: string;
      ipython: boolean;
      reason: StartReason;
      /** Taken from the warm spare rather than started for this call. */
      warm: boolean;
    }
  | { type: 'kernel.execution_started'; kernel: string; execution_id: string; code: string }
  | { type: 'kernel.stream'; kernel: string; execution_id: string; stream: 'stdout' | 'stderr'; text: string }
  | {
      type: 'kernel.display';
      kernel: string;
      execution_id: string;
      text: string | null;
      artifacts: SavedArtifact[];
    }
  | {
      type: 'kernel.input_request';
      kernel: string;
      execution_id: string;
      request_id: string;
      prompt: string;
      password: boolean;
    }
  | {
      type: 'kernel.result';
      kernel: string;
      execution_id: string;
      success: boolean;
      return_value: RichOutput | null;
      error: ErrorDetails | null;
      execution_time_ms: number;
      limit: { kind: LimitKind; limit_ms: number; action: LimitHit['action'] } | null;
      state_lost: string | null;
    }
  | { type: 'kernel.error'; kernel: string; execution_id: string | null; code: ErrorCode; message: string }
  | {
      type: 'kernel.died';
      kernel: string;
      /** The execution it died in, or null when it died between calls. */
      execution_id: string | null;
      exit_code: number | null;
      signal: string | null;
      stderr_tail: string;
      message: string;
    };

export type KernelEventListener = (event: KernelEvent) => void;
