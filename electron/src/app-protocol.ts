import fs from 'node:fs/promises';
import path from 'node:path';
import { isAppUrl } from './navigation-policy';

/**
 * The CSP sent with every app:// response. It repeats renderer/index.html's meta policy (both apply;
 * the stricter wins) and adds what only a header can say: no framing by anyone.
 * connect-src: the local sidecar on loopback, or a remote one over https/wss.
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' http://127.0.0.1:* ws://127.0.0.1:* http://localhost:* ws://localhost:* http://[::1]:* ws://[::1]:* https: wss:",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/** Where an app:// URL leads: a file under the renderer's folder, or why not. */
export type AppResource =
  | { kind: 'file'; filePath: string; contentType: string; fallback: boolean }
  | { kind: 'not-found' }
  | { kind: 'bad-request'; reason: string };

/**
 * The file inside `rootDir` an app:// URL names, checked segment by segment after decoding, so that
 * no spelling (`..`, `%2e%2e`, `%2f`, backslashes, NUL, `C:`) can leave the folder. The URL
 * parser already folds plain `..`; this does not rely on it.
 */
export function appFileFor(rootDir: string, url: string): { filePath: string } | { reason: string } {
  if (!isAppUrl(url)) return { reason: 'not an app://cairn URL' };
  const { pathname } = new URL(url);
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { reason: 'malformed percent-encoding' };
    }
    if (segment === '.' || segment === '..') return { reason: 'dot segment' };
    // An encoded slash or a backslash would be a separator to the file system, a colon a Windows
    // drive or stream, NUL a truncation.
    if (/[\\/:]/.test(segment) || segment.includes('\0'))
      return { reason: 'separator, colon or NUL inside a path segment' };
    segments.push(segment);
  }
  const root = path.resolve(rootDir);
  const filePath = path.resolve(root, ...segments);
  const relative = path.relative(root, filePath);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return { reason: 'outside the app folder' };
  return { filePath };
}

async function isFile(filePath: string): Promise<boolean> {
  try {
    return (await fs.stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves an app:// URL: an existing file is served; a path without an extension is a route of
 * the single-page app and gets index.html; a missing asset is a 404 (index.html would be parsed as
 * script or CSS and hide the real problem).
 */
export async function resolveAppResource(rootDir: string, url: string): Promise<AppResource> {
  const found = appFileFor(rootDir, url);
  if ('reason' in found) return { kind: 'bad-request', reason: found.reason };
  const { filePath } = found;
  if (filePath !== path.resolve(rootDir) && (await isFile(filePath))) {
    return { kind: 'file', filePath, contentType: contentTypeFor(filePath), fallback: false };
  }
  if (path.extname(filePath) !== '' && filePath !== path.resolve(rootDir)) return { kind: 'not-found' };
  const index = path.join(path.resolve(rootDir), 'index.html');
  if (!(await isFile(index))) return { kind: 'not-found' };
  return { kind: 'file', filePath: index, contentType: contentTypeFor(index), fallback: true };
}

/** Headers every app:// response carries. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': APP_CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    // The files change only with the app; a reload after an update must not mix old and new.
    'cache-control': 'no-cache',
  };
}

function textResponse(status: number, message: string): Response {
  return new Response(message, { status, headers: appResponseHeaders('text/plain; charset=utf-8') });
}

/** The handler behind `protocol.handle('app', …)`: the renderer's built files, read-only. */
export async function serveAppRequest(rootDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return textResponse(405, 'Only GET and HEAD are served here.');
  }
  const resource = await resolveAppResource(rootDir, request.url);
  if (resource.kind === 'bad-request') return textResponse(400, `Bad app:// path (${resource.reason}).`);
  if (resource.kind === 'not-found') return textResponse(404, 'Not found.');
  let body: Buffer;
  try {
    body = await fs.readFile(resource.filePath);
  } catch {
    return textResponse(404, 'Not found.');
  }
  const headers = appResponseHeaders(resource.contentType);
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}
