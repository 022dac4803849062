import type { Backend } from '../../../sidecar/src/client';
import { BackendInfo, type DesktopBridge } from '../../../sidecar/src/protocol';

declare global {
  interface Window {
    cairn?: DesktopBridge;
  }
}

/** Inside the desktop app: the bridge and what it last said about the backend. */
export interface Desktop {
  bridge: DesktopBridge;
  info: BackendInfo;
}

/** A backend to talk to, and the desktop host's view of it when there is one. */
export interface ResolvedBackend {
  backend: Backend;
  desktop: Desktop | null;
}

const TOKEN_KEY = 'cairn.token';
const URL_KEY = 'cairn.backend';

/** Asks the host for its backend; the answer is checked, as anything crossing a boundary is. */
export async function askBridge(bridge: DesktopBridge): Promise<ResolvedBackend> {
  const info = BackendInfo.parse(await bridge.getBackend());
  return { backend: { url: info.url, token: info.token }, desktop: { bridge, info } };
}

/**
 * Finds the backend: the Electron bridge; else this page's own server with the token from the URL
 * fragment (kept in session storage and removed from the address bar) or from an earlier visit;
 * else a backend the user entered on the connection screen. Null when none is known yet.
 */
export async function resolveBackend(win: Window = window): Promise<ResolvedBackend | null> {
  if (win.cairn) return askBridge(win.cairn);
  const fragment = new URLSearchParams(win.location.hash.replace(/^#/, ''));
  const fromFragment = fragment.get('token');
  if (fromFragment) {
    win.sessionStorage.setItem(TOKEN_KEY, fromFragment);
    win.sessionStorage.removeItem(URL_KEY);
    fragment.delete('token');
    const rest = fragment.toString();
    win.history.replaceState(
      null,
      '',
      `${win.location.pathname}${win.location.search}${rest ? `#${rest}` : ''}`,
    );
  }
  const token = win.sessionStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  return {
    backend: { url: win.sessionStorage.getItem(URL_KEY) ?? win.location.origin, token },
    desktop: null,
  };
}

/** Remembers a backend entered by hand, for this browser tab only. */
export function rememberBackend(backend: Backend, win: Window = window): void {
  win.sessionStorage.setItem(TOKEN_KEY, backend.token);
  if (backend.url === win.location.origin) win.sessionStorage.removeItem(URL_KEY);
  else win.sessionStorage.setItem(URL_KEY, backend.url);
}

export function forgetBackend(win: Window = window): void {
  win.sessionStorage.removeItem(TOKEN_KEY);
  win.sessionStorage.removeItem(URL_KEY);
}

/**
 * The message of an error the host rejected with. Electron wraps errors thrown in the main process as
 * "Error invoking remote method '<channel>': Error: <message>"; a person needs only the message.
 */
export function bridgeErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, '');
}

/** The host name a person knows the server by (no port), for "on <host>" labels. */
export function backendHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return url;
  }
}
