import { timingSafeEqual } from 'node:crypto';
import { APP_ORIGIN } from '../protocol/host';

/** Host, Origin and token rules of DESIGN.md's API section, as pure functions. */

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

export interface RequestPolicyOptions {
  /** Extra host names (without port) accepted besides loopback, for remote use. */
  allowedHosts: string[];
  /** Extra origins accepted besides the app's and the served page's own. */
  allowedOrigins: string[];
}

/** The host name of a Host header, without its port. */
export function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) {
    const end = hostHeader.indexOf(']');
    return end === -1 ? hostHeader : hostHeader.slice(0, end + 1);
  }
  const colon = hostHeader.lastIndexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

export function isHostAllowed(hostHeader: string | undefined, options: RequestPolicyOptions): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  return LOOPBACK_HOSTS.includes(name) || options.allowedHosts.map((h) => h.toLowerCase()).includes(name);
}

export function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && LOOPBACK_HOSTS.includes(hostName(hostHeader));
}

/**
 * Absent, the app's origin, the served page's own origin (`scheme://Host` for each scheme the page can
 * have been loaded over), or one configured explicitly.
 */
export function isOriginAllowed(
  origin: string | undefined,
  hostHeader: string | undefined,
  pageSchemes: readonly ('http' | 'https')[],
  options: RequestPolicyOptions,
): boolean {
  if (origin === undefined) return true;
  if (origin === APP_ORIGIN) return true;
  if (hostHeader && pageSchemes.some((scheme) => origin === `${scheme}://${hostHeader}`)) return true;
  return options.allowedOrigins.includes(origin);
}

/** Compares a bearer header with the token in constant time; prefixes and repeats fail. */
export function isTokenValid(authorization: string | undefined, token: string): boolean {
  if (!authorization) return false;
  // The scheme is case-insensitive (RFC 7235); the token is compared exactly.
  const match = /^Bearer ([^\s,]+)$/i.exec(authorization);
  if (!match) return false;
  return safeEqual(match[1]!, token);
}

export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Compare against itself on length mismatch so timing does not depend on where they differ.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
