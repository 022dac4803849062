// What the remote-backend e2e test needs beyond cairn-ui.ts: Chromium that resolves test names to
// 127.0.0.1 and trusts one test certificate. (cairn-ui's serveRendererDist with `tls` serves the built
// renderer from another origin, as the desktop app's own origin would be.)
import type { Browser } from 'playwright-core';
import type { TestCertificate } from '../../../sidecar/test/server/test-certificate';
import { launchChromium } from './cairn-ui';

/**
 * launchChromium, where every `names` entry resolves to 127.0.0.1 and the test certificate is trusted
 * by its public key (Chromium honours the SPKI list only with a profile directory, which Playwright
 * always gives it), so a different certificate would still fail.
 */
export function launchChromiumFor(names: string[], cert: TestCertificate): Promise<Browser> {
  return launchChromium([
    `--host-resolver-rules=${names.map((name) => `MAP ${name} 127.0.0.1`).join(', ')}`,
    `--ignore-certificate-errors-spki-list=${cert.spkiHash}`,
  ]);
}
