// Keyboard first: the session switcher, a new session, settings and the side panel from the keyboard.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, launchChromium, newContext, startUiServer, type UiServer } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
const UI_WAIT = 20_000;

let ui: UiServer;
let browser: Browser;

beforeAll(async () => {
  ui = await startUiServer();
  browser = await launchChromium();
}, TEST_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
}, TEST_TIMEOUT);

async function openApp(): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  await page.goto(ui.server.browserUrl);
  await expect
    .poll(() => page.getByRole('navigation', { name: 'Projects' }).isVisible(), { timeout: UI_WAIT })
    .toBe(true);
  return page;
}

const title = (page: Page) => page.locator('.session-title').textContent();

describe('keyboard', () => {
  it('Ctrl+K switches sessions, Ctrl+N starts one, Ctrl+, opens settings, Ctrl+J the panel', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    createSession(ui, 'alpha release notes');
    createSession(ui, 'beta migration');
    const page = await openApp();
    // The switcher lists what the sidebar lists: wait for the sessions to be there.
    await expect
      .poll(() => page.getByRole('button', { name: 'beta migration' }).isVisible(), { timeout: UI_WAIT })
      .toBe(true);

    await page.keyboard.press('Control+K');
    const filter = page.getByRole('dialog', { name: 'Switch session' }).getByRole('textbox');
    await expect.poll(() => filter.isVisible(), { timeout: UI_WAIT }).toBe(true);
    await filter.fill('migr');
    await page.keyboard.press('Enter');
    await expect.poll(() => title(page), { timeout: UI_WAIT }).toBe('beta migration');

    // Escape closes the switcher without changing the session.
    await page.keyboard.press('Control+K');
    await page.keyboard.type('alpha');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog', { name: 'Switch session' }).count()).toBe(0);
    expect(await title(page)).toBe('beta migration');

    // A new session in the same project, which becomes the open one.
    const before = ui.server.core.store.sessions.list().length;
    await page.keyboard.press('Control+N');
    await expect
      .poll(() => ui.server.core.store.sessions.list().length, { timeout: UI_WAIT })
      .toBe(before + 1);
    await expect.poll(() => title(page), { timeout: UI_WAIT }).toBe('New session');

    await page.keyboard.press('Control+J');
    await expect.poll(() => page.locator('.side-panel').isVisible(), { timeout: UI_WAIT }).toBe(true);
    await page.keyboard.press('Control+J');
    await expect.poll(() => page.locator('.side-panel').count(), { timeout: UI_WAIT }).toBe(0);

    await page.keyboard.press('Control+Comma');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Settings' }).isVisible(), { timeout: UI_WAIT })
      .toBe(true);
    await page.context().close();
  });
});
