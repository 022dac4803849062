import { APP_HOST, APP_SCHEME } from './app-origin';

/** What to do with a navigation, a redirect or a window.open: stay, or refuse (and maybe hand the URL to the browser). */
export interface NavigationDecision {
  allow: boolean;
  /** A normalized http(s) URL to open in the system browser instead, or null. */
  openExternal: string | null;
}

/** Longer than any link a person would follow; bounds the work done on hostile input. */
const MAX_URL_LENGTH = 8192;

function parse(url: string): URL | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether a URL is one of the app's own pages. Parsed, never prefix-matched, so
 * `app://cairn.evil.com/` and `app://cairn@evil.com/` are not ours.
 */
export function isAppUrl(url: string): boolean {
  const parsed = parse(url);
  return (
    parsed !== null &&
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.hostname === APP_HOST &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/**
 * The URL to hand to the system browser, or null when it must not be opened: only http and https
 * with a host and without credentials (a `user:pass@` link is a classic way to disguise the host).
 */
export function externalUrlToOpen(url: string): string | null {
  const parsed = parse(url);
  if (!parsed) return null;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (!parsed.hostname) return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/** The hosts a plain-http login page may be on: this machine only (a local authorization server). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The MCP login page (an OAuth authorization URL from the backend) to hand to the system browser, or null:
 * https anywhere, or plain http to this machine only, never with credentials in the URL. Stricter than a
 * link: a login page asks for a password, so it must not travel in the clear across a network.
 */
export function loginUrlToOpen(url: string): string | null {
  const parsed = parse(url);
  if (!parsed?.hostname) return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.protocol === 'https:') return parsed.href;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)) return parsed.href;
  return null;
}

/**
 * A frame is about to navigate (a link click, `location = …`). The app is a single page, so only
 * its own origin may load in the window; a web link goes to the browser instead.
 */
export function decideNavigation(url: string): NavigationDecision {
  if (isAppUrl(url)) return { allow: true, openExternal: null };
  return { allow: false, openExternal: externalUrlToOpen(url) };
}

/**
 * A server redirect during a navigation. The app's pages never redirect, so one that leaves the
 * app is refused, and not opened externally either: nobody asked to go there.
 */
export function decideRedirect(url: string): NavigationDecision {
  return { allow: isAppUrl(url), openExternal: null };
}

/**
 * A navigation inside a subframe: the app loads no page into frames (CSP frame-src 'none'), so nothing
 * leaves it. Its one kind of frame is a code cell's HTML output, given as text (`about:srcdoc`, with an
 * anchor at most) in a frame sandboxed without scripts whose policy loads nothing: that may render.
 */
export function decideSubframeNavigation(url: string): NavigationDecision {
  return { allow: isAppUrl(url) || isSrcdoc(url), openExternal: null };
}

/** The srcdoc document itself, or a place in it (a link to an anchor of the output). */
function isSrcdoc(url: string): boolean {
  return url === 'about:srcdoc' || (typeof url === 'string' && url.startsWith('about:srcdoc#'));
}

/** `window.open` or a `target=_blank` link: never a second app window; web links go to the browser. */
export function decideWindowOpen(url: string): NavigationDecision {
  return { allow: false, openExternal: externalUrlToOpen(url) };
}
