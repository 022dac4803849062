/**
 * The closed set of errors that cross the wire. Each has a stable `code` and an HTTP status;
 * messages say what happened and what to do.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'turn_running'
  | 'request_id_conflict'
  | 'conversation_only'
  | 'keychain_unavailable'
  | 'python_not_found'
  | 'jupyter_unreachable'
  | 'mcp_unavailable'
  | 'model_auth'
  | 'model_overloaded'
  | 'model_rate_limited'
  | 'model_unreachable'
  | 'model_error'
  | 'model_empty_response'
  | 'model_no_key'
  | 'context_window_exceeded'
  | 'continuation_limit'
  | 'data_dir_locked'
  | 'database_too_new'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
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
  model_auth: 502,
  model_overloaded: 503,
  model_rate_limited: 429,
  model_unreachable: 502,
  model_error: 502,
  model_empty_response: 502,
  model_no_key: 400,
  context_window_exceeded: 400,
  continuation_limit: 502,
  data_dir_locked: 409,
  database_too_new: 500,
  internal: 500,
};

export class CairnError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CairnError';
    this.code = code;
    this.status = STATUS[code];
  }
  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

export const notFound = (what: string, id: string): CairnError =>
  new CairnError('not_found', `${what} ${id} does not exist.`);

export const badRequest = (message: string): CairnError => new CairnError('bad_request', message);
