import { CairnError } from '../errors';

/**
 * A part a conversation-only deployment does not have (kernels, MCP), or the refusal that says so: `what`
 * names it in the message ("Python kernels", "MCP servers").
 */
export function requirePart<T>(part: T | null, what: string): T {
  if (!part) {
    throw new CairnError('conversation_only', `This Cairn server runs conversation-only: it has no ${what}.`);
  }
  return part;
}
