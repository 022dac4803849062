import * as z from 'zod/mini';

/** The codes the sidecar sends (HTTP error bodies, failed turns, WebSocket errors, kernel events). */
export const SERVER_ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'turn_running',
  'request_id_conflict',
  'conversation_only',
  'keychain_unavailable',
  'python_not_found',
  'jupyter_unreachable',
  'mcp_unavailable',
  /** The sandbox a project asks for cannot run here (Windows, or bubblewrap missing): what to install. */
  'sandbox_unavailable',
  /** A Python kernel that could not start for a reason other than a missing Python or Jupyter Server. */
  'kernel_start_failed',
  /** A Python kernel whose process ended under a running cell (how the UI reads a `kernel.died`). */
  'kernel_died',
  'model_auth',
  'model_overloaded',
  'model_rate_limited',
  'model_unreachable',
  'model_error',
  'model_empty_response',
  'model_no_key',
  'context_window_exceeded',
  'continuation_limit',
  /** A code-mode turn that used its steps without calling final_answer. */
  'step_limit',
  'data_dir_locked',
  'database_too_new',
  /** A turn that was running when Cairn stopped. */
  'interrupted',
  /** Work that was asked to stop (a turn's cancel) before it ran: not a failure to alarm anyone with. */
  'cancelled',
  'internal',
] as const;

/** The codes clients give failures of their own (no answer, not a Cairn server, the desktop's sidecar gone). */
export const CLIENT_ERROR_CODES = [
  'network',
  'redirect',
  'not_cairn',
  'bad_response',
  'http_error',
  'sidecar_failed',
  'sidecar_stopped',
] as const;

/** The one closed set of error codes: a code outside it does not compile. */
export const ErrorCode = z.enum([...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES]);
export type ErrorCode = z.infer<typeof ErrorCode>;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

/**
 * An error as it crosses the wire. A client reading a code it does not know (an older app talking to a
 * newer server) reads it as `internal` and keeps the message. `details` holds structured data about the
 * failure (the conflicting paths, the log's error id).
 */
export const ErrorInfo = z.object({
  code: z.catch(ErrorCode, 'internal'),
  message: z.string(),
  details: z.optional(z.record(z.string(), z.unknown())),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

export const ErrorResponse = z.object({ error: ErrorInfo });
export type ErrorResponse = z.infer<typeof ErrorResponse>;
