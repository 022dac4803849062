import { isLoopbackHost } from '../../config/loopback';

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
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`The Jupyter server address must be an http(s) URL (got "${baseUrl}").`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`The Jupyter server address must be an http(s) URL (got "${url.protocol}").`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new Error(
      `Refusing to send the Jupyter token over plain http to ${url.host}: use an https:// address ` +
        '(plain http is only for a server on this machine, e.g. http://127.0.0.1:8888).',
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(
      'The Jupyter server address must not contain credentials, a query or a fragment; put the token in the token field.',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/*$/, '/')}`;
}
