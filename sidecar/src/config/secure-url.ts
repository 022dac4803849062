import { isLoopbackHost } from './loopback';

/** Why an address that will carry a token or headers is refused. */
export type InsecureUrlProblem = 'not_a_url' | 'not_http' | 'plain_http_off_machine' | 'has_credentials';

/**
 * Parses an http(s) address that tokens or headers will be sent to: https anywhere, plain http only to
 * this machine, no user:password in it. Each caller words the refusal for its own setting.
 */
export function parseSecureUrl(
  raw: string,
): { url: URL; problem: null } | { url: URL | null; problem: InsecureUrlProblem } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { url: null, problem: 'not_a_url' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { url, problem: 'not_http' };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return { url, problem: 'plain_http_off_machine' };
  if (url.username || url.password) return { url, problem: 'has_credentials' };
  return { url, problem: null };
}
