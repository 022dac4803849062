import { isLoopbackHost } from '../config/loopback';
import { UsageError } from './usage';

/**
 * --server: an http(s) URL, and plain http only to this machine, since the token travels in every
 * request.
 */
export function cairnServerUrl(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UsageError(`--server must be an http(s) URL (got "${server}").`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--server must be an http(s) URL (got "${server}").`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `Refusing to send the token over plain http to ${url.host}: use an https:// address ` +
        '(plain http is only for a server on this machine, e.g. http://127.0.0.1:8765).',
    );
  }
  return server.replace(/\/+$/, '');
}
