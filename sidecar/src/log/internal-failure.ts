import { randomBytes } from 'node:crypto';
import { CairnError } from '../errors';
import type { LogFields, Logger } from './logger';
import { redact } from './redact';

/**
 * A failure inside Cairn itself (SQLite, the disk, a bug) as what it is: logged in full under a fresh
 * error id, and reported as `internal` with that id, so a person can find the details in the log.
 */
export function internalFailure(
  logger: Logger,
  what: string,
  error: unknown,
  fields: LogFields & { logDir?: string } = {},
): CairnError {
  const { logDir, ...rest } = fields;
  const errorId = `err_${randomBytes(6).toString('hex')}`;
  logger.error(what, { ...rest, error_id: errorId, error });
  const where = logDir ? `in ${logDir}` : 'in the log';
  return new CairnError(
    'internal',
    `Something went wrong inside Cairn (${describe(error)}). Details are ${where} under error id ${errorId}; ` +
      'if it happens again, report it with that part of the log.',
    { cause: error, details: { error_id: errorId } },
  );
}

/** The failure's first line, short: enough to recognise it, not a stack. */
function describe(error: unknown): string {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // It crosses the wire: a secret quoted by a failing library must not. Redacted before it is cut,
  // so that a secret cut in half (no longer registered, no longer key-shaped) cannot slip through.
  const line = redact(raw.split('\n')[0]!.trim());
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
}
