/**
 * The renderer is served from a custom scheme rather than file://, so it has a real origin of its
 * own: CSP 'self', CORS and the sidecar's Origin check all name exactly this one.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'cairn';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** What the window loads first. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/`;

/**
 * Registered before 'ready': a standard, secure scheme gets a real origin (so CSP 'self', CORS and
 * the sidecar's Origin check work), counts as a secure context, and may use fetch. corsEnabled lets
 * Vite's `<script type="module" crossorigin>` load from it. Not bypassCSP: the app's CSP applies.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
  bypassCSP: false,
  allowServiceWorkers: false,
  stream: false,
} as const;
