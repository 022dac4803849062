import type { DesktopBridge } from '../../../../sidecar/src/protocol';

/** The hosts a plain-http login page may be on: this machine only (a local authorization server). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The login page (an MCP server's OAuth authorization URL, which comes from the backend and is not trusted
 * further) as it may be opened, or null: https anywhere, or http to this machine only, without credentials
 * in it; never another scheme. The desktop host checks the same again (electron's loginUrlToOpen).
 */
export function loginUrlToOpen(url: string): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > 8192) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!parsed.hostname || parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.protocol === 'https:') return parsed.href;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return parsed.href;
  return null;
}

export interface LoginOpener {
  /** The desktop host's bridge, when running in the desktop app. */
  bridge: Pick<DesktopBridge, 'openLoginUrl'> | null | undefined;
  /** window.open, in a browser. */
  open(url: string, target: string, features: string): unknown;
}

function currentOpener(): LoginOpener {
  return { bridge: window.cairn, open: (url, target, features) => window.open(url, target, features) };
}

/**
 * Opens a login page: the desktop app asks its host (the system browser), a browser opens a new tab without
 * giving it a handle on this page. False when the URL is refused; a host's refusal rejects.
 */
export async function openLoginPage(url: string, opener: LoginOpener = currentOpener()): Promise<boolean> {
  const safe = loginUrlToOpen(url);
  if (safe === null) return false;
  if (opener.bridge?.openLoginUrl) await opener.bridge.openLoginUrl(safe);
  else opener.open(safe, '_blank', 'noopener,noreferrer');
  return true;
}
