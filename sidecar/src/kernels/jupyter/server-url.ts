import { parseSecureUrl } from '../../config/secure-url';

/** Where a Jupyter Server is and how to authenticate to it. */
export interface JupyterServerAddress {
  /** `https://host/prefix/` (plain http only for a server on this machine). */
  baseUrl: string;
  /** The server's token; sent only in the Authorization header, never in a URL. */
  token: string;
}

/**
 * Checks the address and returns it normalised (one trailing slash). The token travels with every request,
 * so only over TLS unless it never leaves this machine; a URL with credentials or a query is refused too.
 */
export function checkServerUrl(baseUrl: string): string {
  const parsed = parseSecureUrl(baseUrl);
  if (parsed.problem === 'not_a_url' || parsed.problem === 'not_http') {
    throw new Error(
      `The Jupyter server address must be an http(s) URL (got "${parsed.url?.protocol ?? baseUrl}").`,
    );
  }
  if (parsed.problem === 'plain_http_off_machine') {
    throw new Error(
      `Refusing to send the Jupyter token over plain http to ${parsed.url?.host}: use an https:// address ` +
        '(plain http is only for a server on this machine, e.g. http://127.0.0.1:8888).',
    );
  }
  if (parsed.problem !== null || parsed.url.search || parsed.url.hash) {
    throw new Error(
      'The Jupyter server address must not contain credentials, a query or a fragment; put the token in the token field.',
    );
  }
  return `${parsed.url.origin}${parsed.url.pathname.replace(/\/*$/, '/')}`;
}
