import { timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { APP_ORIGIN } from '../protocol/host';

/** Host, Origin and token rules of DESIGN.md's API section, as pure functions. */

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

export interface RequestPolicyOptions {
  /** Extra host names (without port) accepted besides loopback, for remote use. */
  allowedHosts: string[];
  /** Extra origins accepted besides the app's and the served page's own. */
  allowedOrigins: string[];
}

/** A Host value taken apart: the name in lower case (an IPv6 literal keeps its brackets), and the port. */
export interface HostParts {
  name: string;
  port: string | null;
}

// RFC 9110 §7.2: uri-host [ ":" port ]. A name of unreserved characters or a bracketed IPv6 literal, and
// nothing else: no second host, no user info, no path, no empty port.
const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::(\d{1,5}))?$/i;
/** The scheme and authority of an absolute-form request target (`http://host:port/path`). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/** A Host header (or an authority) parsed strictly; null when it is not exactly one host and a port. */
export function parseHost(value: string): HostParts | null {
  const match = HOST_PATTERN.exec(value);
  if (!match) return null;
  const name = match[1]!.toLowerCase();
  const port = match[2] ?? null;
  if (name.startsWith('[') && !net.isIPv6(name.slice(1, -1))) return null;
  if (port !== null && Number(port) > 65535) return null;
  return { name, port };
}

/**
 * The Host a request is addressed to: its one Host header, which the authority of an absolute-form target
 * must repeat (RFC 9112 §3.2.2: there the target's authority wins over Host). Undefined when there is no
 * Host header, more than one, or a target naming another host, so that the request is refused.
 */
export function requestHost(rawHeaders: readonly string[], target: string): string | undefined {
  const hosts: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'host') hosts.push(rawHeaders[i + 1]!);
  }
  const host = hosts.length === 1 ? hosts[0] : undefined;
  const authority = ABSOLUTE_FORM.exec(target)?.[1];
  if (host === undefined || authority === undefined) return host;
  return authority.toLowerCase() === host.toLowerCase() ? host : undefined;
}

export function isHostAllowed(hostHeader: string | undefined, options: RequestPolicyOptions): boolean {
  const host = hostHeader === undefined ? null : parseHost(hostHeader);
  if (!host) return false;
  return (
    LOOPBACK_HOSTS.includes(host.name) || options.allowedHosts.some((h) => h.toLowerCase() === host.name)
  );
}

export function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  const host = hostHeader === undefined ? null : parseHost(hostHeader);
  return host !== null && LOOPBACK_HOSTS.includes(host.name);
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
  // Compared with the Host as parsed, so that only a real origin of that host and port can match it.
  const host = hostHeader === undefined ? null : parseHost(hostHeader);
  const own = host && `${host.name}${host.port === null ? '' : `:${host.port}`}`;
  if (own && pageSchemes.some((scheme) => origin.toLowerCase() === `${scheme}://${own}`)) return true;
  return options.allowedOrigins.includes(origin);
}

/**
 * Whether a request target names the API, `/api` or a path under it, however it is spelled: in absolute
 * form, percent-encoded, with doubled slashes, dot segments or capitals. This is a superset of what the
 * router sends to an API route, so that no spelling of an API path can reach the public static files.
 */
export function isApiPath(target: string): boolean {
  const path = target.replace(ABSOLUTE_FORM, '').split(/[?#]/, 1)[0]!;
  // ASCII escapes only: enough to spell `api`, `/` and `.`, and never throws on a malformed sequence.
  const decoded = path.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  // The first segment as written (the router does not resolve `..`) and as resolved (a proxy might).
  const written: string[] = [];
  const resolved: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    written.push(segment);
    if (segment === '..') resolved.pop();
    else resolved.push(segment);
  }
  return [written[0], resolved[0]].some((first) => first?.toLowerCase() === 'api');
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
