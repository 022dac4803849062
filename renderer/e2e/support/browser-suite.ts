// The set-up most e2e files share, as vitest hooks: one real sidecar and one Chromium for the suite, pages
// closed after each test, turns left running cancelled, and an uncaught error in a page failing its test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { cancelRunningTurns, launchChromium, newContext, startUiServer, type UiServer } from './cairn-ui';

export interface BrowserSuite {
  readonly ui: UiServer;
  readonly browser: Browser;
  /** A page in a fresh context, at the app's URL unless `goto` is false. */
  openPage(options?: { colorScheme?: 'light' | 'dark'; locale?: string; goto?: boolean }): Promise<Page>;
}

/** Call at the top of a file or a describe block; the returned object is usable inside tests and hooks. */
export function browserSuite(options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): BrowserSuite {
  const timeout = options.timeoutMs ?? 180_000;
  let ui: UiServer | null = null;
  let browser: Browser | null = null;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const started = <T>(value: T | null, what: string): T => {
    if (!value) throw new Error(`The ${what} starts in beforeAll: use it inside a test or a hook.`);
    return value;
  };

  beforeAll(async () => {
    ui = await startUiServer({ env: options.env });
    browser = await launchChromium();
  }, timeout);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
  }, timeout);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    if (ui) {
      await cancelRunningTurns(ui);
      ui.replies.reset();
    }
    expect(pageErrors.splice(0), 'uncaught errors in the page').toEqual([]);
  });

  return {
    get ui() {
      return started(ui, 'UI server');
    },
    get browser() {
      return started(browser, 'browser');
    },
    async openPage({ goto = true, ...contextOptions } = {}) {
      const context = await newContext(started(browser, 'browser'), contextOptions);
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
      if (goto) await page.goto(started(ui, 'UI server').server.browserUrl);
      return page;
    },
  };
}
