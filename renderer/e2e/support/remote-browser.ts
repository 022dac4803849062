// What the remote-backend e2e test needs beyond cairn-ui.ts: Chromium that resolves test names to
// 127.0.0.1 and trusts one test certificate, and a small HTTPS server that serves the built renderer
// from another origin, as the desktop app's own origin would be.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import type { TestCertificate } from '../../../sidecar/test/server/test-certificate';
import { DIST_DIR } from './cairn-ui';

const CHROMIUM = process.env.CAIRN_E2E_CHROMIUM ?? '/usr/bin/chromium';

/**
 * launchChromium's flags (cairn-ui.ts), plus: every `names` entry resolves to 127.0.0.1, and the test
 * certificate is trusted by its public key (Chromium honours the SPKI list only with a profile
 * directory, which Playwright always gives it), so a different certificate would still fail.
 */
export async function launchChromiumFor(names: string[], cert: TestCertificate): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium fonts-noto-cjk`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--host-resolver-rules=${names.map((name) => `MAP ${name} 127.0.0.1`).join(', ')}`,
      `--ignore-certificate-errors-spki-list=${cert.spkiHash}`,
    ],
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface StaticSite {
  port: number;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves renderer/dist over HTTPS on 127.0.0.1, for any Host: the page's origin is whatever name is used. */
export async function serveRendererOverTls(cert: TestCertificate): Promise<StaticSite> {
  const requests: string[] = [];
  const server = https.createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    const route = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    requests.push(route);
    const file = path.join(DIST_DIR, route === '/' ? 'index.html' : route);
    if (!file.startsWith(DIST_DIR + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
