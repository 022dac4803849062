import { ServerConnection } from '@jupyterlab/services';
import NodeWebSocket from 'ws';
import { checkServerUrl, type JupyterServerAddress } from './server-url';

export type { JupyterServerAddress };

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
