import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** An error from the SDK or the network, in words for people (no "MCP error -32603:" prefix). */
export function describe(err: unknown): string {
  if (err instanceof McpError) return err.message.replace(/^MCP error -?\d+: /, '');
  if (!(err instanceof Error)) return String(err);
  // fetch's own message ("fetch failed") hides the reason in its cause.
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code || cause?.message ? `${err.message} (${cause.code ?? cause.message})` : err.message;
}
