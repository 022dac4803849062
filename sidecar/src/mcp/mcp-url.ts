import { parseSecureUrl } from '../config/secure-url';

/**
 * Checks a Streamable HTTP endpoint: https anywhere, plain http only to this machine (headers and tokens
 * would cross the network in the clear). Returns the URL normalised; throws an Error saying what to use.
 */
export function checkMcpUrl(raw: string): string {
  const parsed = parseSecureUrl(raw);
  switch (parsed.problem) {
    case null:
      return parsed.url.toString();
    case 'not_a_url':
      throw new Error(`"${raw}" is not a URL: give the server's endpoint, like https://example.com/mcp.`);
    case 'not_http':
      throw new Error(`An MCP endpoint must be an http(s) URL (got "${parsed.url?.protocol}").`);
    case 'plain_http_off_machine':
      throw new Error(
        `Refusing plain http to ${parsed.url?.host}: use https:// (plain http is only for a server on this machine, e.g. http://127.0.0.1:3001/mcp).`,
      );
    case 'has_credentials':
      throw new Error(
        'An MCP endpoint must not contain credentials: put a token in the bearer token or a header.',
      );
  }
}
