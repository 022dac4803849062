import type { Backend } from './http-client';

/** What the Electron preload exposes to the renderer (nothing else of Node is reachable). */
export interface CairnBridge {
  getBackend(): Promise<Backend & { mode: 'local' | 'remote' }>;
  pickFolder(): Promise<string | null>;
  openExternal(url: string): Promise<void>;
  appVersion(): Promise<string>;
}

declare global {
  interface Window {
    cairn?: CairnBridge;
  }
}

const TOKEN_KEY = 'cairn.token';
const URL_KEY = 'cairn.backend';

/**
 * Finds the backend: the Electron bridge; else this page's own server with the token from the URL
 * fragment (kept in session storage and removed from the address bar) or from an earlier visit;
 * else a backend the user entered on the connection screen. Null when none is known yet.
 */
export async function resolveBackend(win: Window = window): Promise<Backend | null> {
  if (win.cairn) return win.cairn.getBackend();
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
  return { url: win.sessionStorage.getItem(URL_KEY) ?? win.location.origin, token };
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
