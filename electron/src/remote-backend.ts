/** A remote backend's address and token, as chosen in settings or the environment. */
export interface RemoteBackend {
  url: string;
  token: string;
}

/** A remote backend that cannot be used as given; the message says what to change. */
export class RemoteBackendError extends Error {
  override readonly name = 'RemoteBackendError';
}

const MAX_URL_LENGTH = 2048;

/**
 * The loopback names where plain http is allowed: it stays on this machine. Only these three,
 * because the window's CSP (renderer/index.html, app-protocol.ts) lets the UI connect to them alone.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(hostname.toLowerCase());
}

/**
 * Checks a remote backend's URL and returns it normalized (scheme and host lower-case, default
 * port dropped, no trailing slash): https, or http on loopback only, so a token never crosses a
 * network in clear; no credentials, query or fragment, because the token travels only in a header.
 */
export function validateRemoteUrl(raw: string): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) throw new RemoteBackendError('The backend URL is empty. Enter e.g. https://cairn.example.com.');
  if (text.length > MAX_URL_LENGTH) {
    throw new RemoteBackendError(`The backend URL is longer than ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RemoteBackendError(
      `"${text.slice(0, 200)}" is not a URL. Enter it with its scheme, e.g. https://cairn.example.com.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RemoteBackendError(
      `The backend URL must start with https:// (it starts with ${url.protocol}//).`,
    );
  }
  if (!url.hostname) throw new RemoteBackendError('The backend URL has no host name.');
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    throw new RemoteBackendError(
      `The backend at ${url.host} must use https://: plain http would send the token unencrypted. ` +
        'http:// is allowed only for 127.0.0.1, ::1 and localhost.',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new RemoteBackendError(
      'The backend URL must not contain a user name or password; enter the token in its own field.',
    );
  }
  if (url.search !== '' || url.hash !== '' || url.href.includes('?') || url.href.includes('#')) {
    throw new RemoteBackendError(
      'The backend URL must not have a query (?…) or fragment (#…); the token goes in its own field.',
    );
  }
  const pathPrefix = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${pathPrefix}`;
}

/**
 * The remote backend named by CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN, or null when neither is
 * set. One without the other is a mistake worth stopping for, not a reason to start a local sidecar.
 */
export function backendFromEnvironment(env: Record<string, string | undefined>): RemoteBackend | null {
  const url = env.CAIRN_BACKEND_URL?.trim() ?? '';
  const token = env.CAIRN_BACKEND_TOKEN?.trim() ?? '';
  if (!url && !token) return null;
  if (!token) {
    throw new RemoteBackendError(
      'CAIRN_BACKEND_URL is set but CAIRN_BACKEND_TOKEN is not. Set both to use a remote backend, ' +
        'or neither to start a local one.',
    );
  }
  if (!url) {
    throw new RemoteBackendError(
      'CAIRN_BACKEND_TOKEN is set but CAIRN_BACKEND_URL is not. Set both to use a remote backend, ' +
        'or neither to start a local one.',
    );
  }
  try {
    return { url: validateRemoteUrl(url), token };
  } catch (error) {
    if (error instanceof RemoteBackendError) {
      throw new RemoteBackendError(`CAIRN_BACKEND_URL: ${error.message}`);
    }
    throw error;
  }
}
