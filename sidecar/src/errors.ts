import type { ErrorInfo, ServerErrorCode } from './protocol/errors';

/**
 * The errors that cross the wire: each has a stable `code` from protocol's closed set and an HTTP status;
 * messages say what happened and what to do.
 */
export type ErrorCode = ServerErrorCode;

const STATUS: Record<ServerErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  turn_running: 409,
  request_id_conflict: 409,
  conversation_only: 403,
  keychain_unavailable: 503,
  python_not_found: 503,
  jupyter_unreachable: 502,
  mcp_unavailable: 502,
  sandbox_unavailable: 409,
  kernel_start_failed: 502,
  kernel_died: 502,
  model_auth: 502,
  model_overloaded: 503,
  model_rate_limited: 429,
  model_unreachable: 502,
  model_error: 502,
  model_empty_response: 502,
  model_no_key: 400,
  context_window_exceeded: 400,
  continuation_limit: 502,
  step_limit: 502,
  data_dir_locked: 409,
  database_too_new: 500,
  interrupted: 503,
  // Stopped by another request (the turn's cancel), not by this one's client.
  cancelled: 409,
  internal: 500,
};

export class CairnError extends Error {
  readonly code: ServerErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  constructor(
    code: ServerErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown>; status?: number },
  ) {
    super(message, options);
    this.name = 'CairnError';
    this.code = code;
    this.status = options?.status ?? STATUS[code];
    this.details = options?.details;
  }
  toJSON(): ErrorInfo {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export const notFound = (what: string, id: string): CairnError =>
  new CairnError('not_found', `${what} ${id} does not exist.`);

export const badRequest = (message: string): CairnError => new CairnError('bad_request', message);
