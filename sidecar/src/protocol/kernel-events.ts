import * as z from 'zod/mini';
import { ErrorCode } from './errors';
import { eventBase as base } from './event-base';
import { KernelErrorDetails, KernelLimitHit, KernelRichOutput } from './kernels';

/**
 * What Python kernels report, on the session's journal. An execution begins with
 * `kernel.execution_started` and ends with exactly one of `kernel.result` (the cell ran, well or not) or
 * `kernel.error` (it could not run). `turn_id` is the agent's turn for the agent's executions, null for
 * the user's.
 */

export const KernelStartedEvent = z.object({
  ...base,
  type: z.literal('kernel.started'),
  kernel: z.string(),
  /** The local process; null for a kernel on a Jupyter Server. */
  pid: z.nullable(z.number().check(z.int())),
  /** The Jupyter Server it runs on (its base URL); absent or null for a local kernel. */
  server: z.optional(z.nullable(z.string())),
  python: z.string(),
  implementation: z.string(),
  ipython: z.boolean(),
  reason: z.enum(['first_use', 'restart', 'after_death', 'after_limit']),
  /** Taken from the warm spare rather than started for this call. */
  warm: z.boolean(),
});
export const KernelExecutionStartedEvent = z.object({
  ...base,
  type: z.literal('kernel.execution_started'),
  kernel: z.string(),
  execution_id: z.string(),
  code: z.string(),
  /** The agent's execute_code call that runs it; null for the user's own cells. */
  tool_call_id: z.nullable(z.string()),
});
export const KernelStreamEvent = z.object({
  ...base,
  type: z.literal('kernel.stream'),
  kernel: z.string(),
  execution_id: z.string(),
  stream: z.enum(['stdout', 'stderr']),
  text: z.string(),
});
export const KernelDisplayEvent = z.object({
  ...base,
  type: z.literal('kernel.display'),
  kernel: z.string(),
  execution_id: z.string(),
  ...KernelRichOutput.shape,
});
export const KernelInputRequestEvent = z.object({
  ...base,
  type: z.literal('kernel.input_request'),
  kernel: z.string(),
  execution_id: z.string(),
  request_id: z.string(),
  prompt: z.string(),
  /** From getpass: show a password field. */
  password: z.boolean(),
});
export const KernelResultEvent = z.object({
  ...base,
  type: z.literal('kernel.result'),
  kernel: z.string(),
  execution_id: z.string(),
  success: z.boolean(),
  return_value: z.nullable(KernelRichOutput),
  error: z.nullable(KernelErrorDetails),
  execution_time_ms: z.number(),
  limit: z.nullable(KernelLimitHit),
  /** Why the variables of earlier calls are gone, when they are. */
  state_lost: z.nullable(z.string()),
});
export const KernelErrorEvent = z.object({
  ...base,
  type: z.literal('kernel.error'),
  kernel: z.string(),
  execution_id: z.nullable(z.string()),
  /** Of the closed set; read as `internal` when unknown (a newer server, or an older journal's entry). */
  code: z.catch(ErrorCode, 'internal'),
  message: z.string(),
});
export const KernelDiedEvent = z.object({
  ...base,
  type: z.literal('kernel.died'),
  kernel: z.string(),
  /** The execution it died in, or null when it died between calls. */
  execution_id: z.nullable(z.string()),
  exit_code: z.nullable(z.number().check(z.int())),
  signal: z.nullable(z.string()),
  stderr_tail: z.string(),
  message: z.string(),
});
