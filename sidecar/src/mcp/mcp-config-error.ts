import { CairnError } from '../errors';

/**
 * A configuration the user gave (a command line, an imported file, answers to its questions) cannot be used.
 * A bad request on the wire: the message says what is wrong, where, and what to do.
 */
export class McpConfigError extends CairnError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('bad_request', message, options);
    this.name = 'McpConfigError';
  }
}
