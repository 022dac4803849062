import { isLoopbackHost } from '../config/loopback';

/**
 * Checks a Streamable HTTP endpoint: https anywhere, plain http only to this machine (headers and tokens
 * would cross the network in the clear). Returns the URL normalised; throws an Error saying what to use.
 */
export function checkMcpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`"${raw}" is not a URL: give the server's endpoint, like https://example.com/mcp.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`An MCP endpoint must be an http(s) URL (got "${url.protocol}").`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new Error(
      `Refusing plain http to ${url.host}: use https:// (plain http is only for a server on this machine, e.g. http://127.0.0.1:3001/mcp).`,
    );
  }
  if (url.username || url.password) {
    throw new Error(
      'An MCP endpoint must not contain credentials: put a token in the bearer token or a header.',
    );
  }
  return url.toString();
}
