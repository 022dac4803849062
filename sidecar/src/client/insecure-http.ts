import { ApiError } from './http-client';

/**
 * Whether a host name stays on this machine (127.0.0.0/8, ::1, localhost). The client layer runs in
 * browsers too, so it cannot use config/loopback.ts; this is the same rule.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Refuses to send the token in cleartext: plain http only to this machine, or to the page's own origin
 * in a browser (the page came from there already), unless the caller opted out.
 */
export function checkTransport(url: string, allowInsecureHttp: boolean): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // Not a URL: the first request fails and says so.
  }
  if (parsed.protocol !== 'http:' || allowInsecureHttp || isLoopbackHostname(parsed.hostname)) return;
  const page = (globalThis as { location?: { origin?: string } }).location?.origin;
  if (page === parsed.origin) return;
  throw new ApiError(
    0,
    'bad_request',
    `Refusing to send the token over plain http to ${parsed.host}: use an https:// address (plain http is ` +
      'only for a server on this machine, e.g. http://127.0.0.1:8765), or pass allowInsecureHttp: true ' +
      'on a network you trust.',
  );
}
