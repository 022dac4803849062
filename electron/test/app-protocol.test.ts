import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_CONTENT_SECURITY_POLICY,
  appFileFor,
  contentTypeFor,
  resolveAppResource,
  serveAppRequest,
} from '../src/app-protocol';

// base/dist is the served folder; base/secret.txt sits right beside it, one `..` away.
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-app-protocol-')));
const root = path.join(base, 'dist');

beforeAll(() => {
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Cairn</title>');
  fs.writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'assets', 'index-abc.css'), 'body{}');
  fs.writeFileSync(path.join(root, 'assets', 'font.woff2'), Buffer.from([0, 1, 2, 3]));
  fs.writeFileSync(path.join(root, 'assets', 'file name.svg'), '<svg/>');
  fs.writeFileSync(path.join(base, 'secret.txt'), 'do not serve');
  fs.writeFileSync(path.join(base, 'dist-evil.txt'), 'do not serve either');
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => serveAppRequest(root, new Request(url, { method }));

describe('app:// protocol', () => {
  it('serves files with their content type and the security headers', async () => {
    const response = await get('app://cairn/assets/index-abc.js');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('console.log(1)');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe(APP_CONTENT_SECURITY_POLICY);

    const css = await get('app://cairn/assets/index-abc.css?v=2');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const font = await get('app://cairn/assets/font.woff2');
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(new Uint8Array(await font.arrayBuffer())).toEqual(new Uint8Array([0, 1, 2, 3]));
    expect((await get('app://cairn/assets/file%20name.svg')).headers.get('content-type')).toBe(
      'image/svg+xml',
    );
  });

  it('serves index.html for the root and for app routes without an extension', async () => {
    for (const url of ['app://cairn/', 'app://cairn', 'app://cairn/sessions/abc', 'app://cairn/assets']) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<title>Cairn</title>');
    }
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    const response = await get('app://cairn/assets/missing.js');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('<title>');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://cairn/assets/index-abc.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get('app://cairn/index.html', 'POST')).status).toBe(405);
  });

  const escapes = [
    'app://cairn/../secret.txt',
    'app://cairn/%2e%2e/secret.txt',
    'app://cairn/%2E%2E/secret.txt',
    'app://cairn/assets/%2e%2e/%2e%2e/secret.txt',
    'app://cairn/.%2e/secret.txt',
    'app://cairn/%2e%2e%2fsecret.txt',
    'app://cairn/..%2fsecret.txt',
    'app://cairn/..%5csecret.txt',
    'app://cairn/..\\secret.txt',
    'app://cairn/assets\\..\\..\\secret.txt',
    'app://cairn/%2fetc%2fpasswd',
    `app://cairn/${encodeURIComponent(path.join(base, 'secret.txt'))}`,
    'app://cairn/C:%5CWindows%5Cwin.ini',
    'app://cairn/C:/Windows/win.ini',
    'app://cairn/index.html%00.js',
    'app://cairn/%E0%A4%A',
    'app://cairn/../dist-evil.txt',
    'app://cairn/%2e%2e/dist-evil.txt',
    'app://cairn.evil.com/index.html',
    'app://other/index.html',
    'file:///etc/passwd',
    'https://cairn/index.html',
  ];

  it.each(escapes)('never serves anything outside the folder for %s', async (url) => {
    const response = await get(url);
    const body = await response.text();
    expect(body).not.toContain('do not serve');
    if (response.status === 200) {
      // The URL parser folded the `..` away: what is served must be the app's own index page.
      expect(body).toContain('<title>Cairn</title>');
    } else {
      expect([400, 404]).toContain(response.status);
    }
  });

  it('rejects, by reason, paths that only escape once decoded', () => {
    for (const url of [
      'app://cairn/%2e%2e%2fsecret.txt',
      'app://cairn/..%5csecret.txt',
      'app://cairn/C:%5CWindows',
      'app://cairn/a%00b',
      'app://cairn/%E0%A4%A',
    ]) {
      expect(appFileFor(root, url), url).toHaveProperty('reason');
    }
    expect(appFileFor(root, 'app://cairn/assets/index-abc.js')).toEqual({
      filePath: path.join(root, 'assets', 'index-abc.js'),
    });
  });

  it('resolves a missing route to the index and reports a missing index as not found', async () => {
    expect(await resolveAppResource(root, 'app://cairn/settings')).toMatchObject({
      kind: 'file',
      filePath: path.join(root, 'index.html'),
      fallback: true,
    });
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-app-empty-'));
    try {
      expect(await resolveAppResource(empty, 'app://cairn/')).toEqual({ kind: 'not-found' });
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('maps unknown extensions to a download-safe type', () => {
    expect(contentTypeFor('x.exe')).toBe('application/octet-stream');
    expect(contentTypeFor('X.HTML')).toBe('text/html; charset=utf-8');
  });

  it("keeps the CSP in step with the renderer's own meta policy and forbids framing", () => {
    const html = fs.readFileSync(path.resolve(import.meta.dirname, '../../renderer/index.html'), 'utf8');
    const meta = html.match(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)?.[1];
    expect(meta).toBeDefined();
    const directives = (policy: string) =>
      new Map(
        policy
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      );
    const header = directives(APP_CONTENT_SECURITY_POLICY);
    for (const [name, values] of directives(meta!)) expect(header.get(name), name).toEqual(values);
    expect(header.get('frame-ancestors')).toEqual(["'none'"]);
    expect(header.get('connect-src')).toEqual(
      expect.arrayContaining(['http://127.0.0.1:*', 'https:', 'wss:']),
    );
    expect(header.get('script-src')).not.toContain("'unsafe-eval'");
  });
});
