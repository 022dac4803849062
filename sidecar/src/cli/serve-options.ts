import net from 'node:net';
import { isLoopbackHost } from '../config/loopback';
import { APP_ORIGIN } from '../protocol/host';
import { UsageError } from './usage';

/** The shortest CAIRN_TOKEN accepted for remote use: a generated token is 43 characters. */
export const MIN_REMOTE_TOKEN_LENGTH = 32;

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * `--allowed-hosts a,b`: host names as they appear in a Host header without the port, lower-cased;
 * IPv6 addresses bracketed, as Host headers carry them.
 */
export function parseAllowedHosts(value: string | undefined): string[] {
  return commaList(value).map((raw) => {
    const name = raw.toLowerCase();
    const bare = name.replace(/^\[|\]$/g, '');
    if (net.isIPv6(bare)) return `[${bare}]`;
    if (!/^[a-z0-9.-]+$/.test(name) || name.startsWith('.') || name.endsWith('.')) {
      throw new UsageError(
        `--allowed-hosts takes host names without scheme, port or path (got "${raw}"), e.g. --allowed-hosts cairn.example.com.`,
      );
    }
    return name;
  });
}

/** `--allowed-origins https://x,https://y`: each exactly an http(s) origin, as a browser sends it. */
export function parseAllowedOrigins(value: string | undefined): string[] {
  return commaList(value).map((raw) => {
    if (raw === APP_ORIGIN) return raw;
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // Reported below.
    }
    if (
      !url ||
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      raw.endsWith('?') ||
      raw.endsWith('#')
    ) {
      throw new UsageError(
        `--allowed-origins takes origins, scheme://host[:port] with no path (got "${raw}"), e.g. --allowed-origins https://desk.example.com.`,
      );
    }
    // As a browser sends it: lower-case, without a default port.
    return url.origin;
  });
}

/**
 * `--public-url URL`: the address browsers reach this server at (MCP logins come back to
 * `<URL>/api/mcp/oauth/callback`). https, or plain http to this machine; no credentials, query or fragment.
 */
export function parsePublicUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL | null = null;
  try {
    url = new URL(value.trim());
  } catch {
    // Reported below.
  }
  const loopbackHttp = url?.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (
    !url ||
    (url.protocol !== 'https:' && !loopbackHttp) ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  ) {
    throw new UsageError(
      `--public-url takes the https address browsers reach this server at, without query or fragment (got "${value}"), e.g. --public-url https://cairn.example.com.`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
