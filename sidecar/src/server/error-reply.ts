import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { CairnError } from '../errors';
import { internalFailure } from '../log/internal-failure';
import type { Logger } from '../log/logger';

/** Where a failure inside Cairn is logged, for its message. */
export interface ErrorReplyContext {
  logger: Logger;
  dataDir: string;
}

/**
 * Any error as one of the closed set: a CairnError as it is; a 4xx the framework raised (a body too large,
 * bad JSON) as `bad_request` or `not_found` with its status; anything else as `internal`, logged under an id.
 */
export function asCairnError(error: unknown, ctx: ErrorReplyContext): CairnError {
  if (error instanceof CairnError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) {
    const message = error instanceof Error ? error.message : String(error);
    return new CairnError(status === 404 ? 'not_found' : 'bad_request', message, { cause: error, status });
  }
  return internalFailure(ctx.logger, 'request failed', error, { logDir: path.join(ctx.dataDir, 'logs') });
}

/** The one way an error body leaves the server: `{error: {code, message, details?}}` with its status. */
export function sendError(reply: FastifyReply, error: unknown, ctx: ErrorReplyContext): FastifyReply {
  const failure = asCairnError(error, ctx);
  return reply.code(failure.status).send({ error: failure.toJSON() });
}
