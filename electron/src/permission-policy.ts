import { isAppUrl } from './navigation-policy';

/**
 * Permissions granted to web content. Electron grants every permission by default; the app needs
 * only to copy text (the code blocks' copy button) from its own page. Camera, microphone,
 * notifications, geolocation, HID/serial/USB and the rest are refused, and so is anything from
 * another origin.
 */
const ALLOWED = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined): boolean {
  return ALLOWED.has(permission) && typeof requestingUrl === 'string' && isAppUrl(requestingUrl);
}
