import { ServerConnection } from '@jupyterlab/services';
import NodeWebSocket from 'ws';
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

/**
 * fetch that never follows a redirect: following one would send the token's header to wherever the
 * server points (fetch keeps Authorization on same-origin hops, and a proxy could point anywhere).
 */
export const noRedirectFetch = async (
  input: Request | string | URL,
  init?: RequestInit,
): Promise<Response> => {
  const response = await fetch(input, { ...init, redirect: 'manual' });
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    await response.body?.cancel();
    throw new Error(
      `The Jupyter server answered with a redirect (HTTP ${response.status}${location ? ` to ${stripQuery(location)}` : ''}); ` +
        'Cairn does not follow redirects with the token. Use the final address of the server.',
    );
  }
  return response;
};

/**
 * A `ws` WebSocket that authenticates with the Authorization header. @jupyterlab/services would otherwise
 * put the token in the socket URL's query (its default outside a browser, `appendToken`), where proxies
 * and server logs keep it; settings below switch that off.
 */
function headerAuthWebSocket(token: string): typeof WebSocket {
  class HeaderAuthWebSocket extends NodeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { Authorization: `token ${token}` }, followRedirects: false });
    }
  }
  return HeaderAuthWebSocket as unknown as typeof WebSocket;
}

/** Settings for @jupyterlab/services: token in headers only, no redirects, `ws` as the socket (Node 20). */
export function makeServerSettings(address: JupyterServerAddress): ServerConnection.ISettings {
  const baseUrl = checkServerUrl(address.baseUrl);
  return ServerConnection.makeSettings({
    baseUrl,
    wsUrl: `ws${baseUrl.slice(4)}`,
    token: address.token,
    appendToken: false,
    WebSocket: headerAuthWebSocket(address.token),
    fetch: noRedirectFetch,
    init: { credentials: 'omit', redirect: 'manual' },
  });
}

/** A request error in words: a refused token says so rather than "Forbidden". */
export function describeServerError(err: unknown, baseUrl: string): Error {
  if (err instanceof ServerConnection.ResponseError) {
    const status = err.response.status;
    if (status === 401 || status === 403) {
      return new Error(
        `The Jupyter server at ${baseUrl} refused the token (HTTP ${status}). Check the token in the kernel settings.`,
        { cause: err },
      );
    }
    return new Error(`The Jupyter server at ${baseUrl} answered HTTP ${status}: ${err.message}`, {
      cause: err,
    });
  }
  if (err instanceof ServerConnection.NetworkError) {
    return new Error(`Could not reach the Jupyter server at ${baseUrl}: ${err.message}`, { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}

function stripQuery(location: string): string {
  return location.replace(/[?#].*$/, '');
}
