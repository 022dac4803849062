// A conversation-only server in the browser: what it does not offer is hidden, and chatting still works.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, screenshot, startUiServer, type UiServer } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
const UI_WAIT = 20_000;

let ui: UiServer;
let browser: Browser;

beforeAll(async () => {
  ui = await startUiServer({ env: { CAIRN_CONVERSATION_ONLY: 'true' } });
  browser = await launchChromium();
}, TEST_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
}, TEST_TIMEOUT);

describe('conversation-only mode', () => {
  it('hides projects and folders, and a chat runs without tools', { timeout: TEST_TIMEOUT }, async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(ui.server.browserUrl);
    const newChat = page.getByRole('button', { name: 'New chat' });
    await expect.poll(() => newChat.first().isVisible(), { timeout: UI_WAIT }).toBe(true);
    // No project section, no "Open folder" anywhere: the server has no projects.
    expect(await page.getByRole('button', { name: 'Open folder' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Projects' }).count()).toBe(0);

    ui.replies.enqueue({ content: [{ type: 'text', text: 'Just talking, no tools here.' }] });
    await newChat.first().click();
    await page.getByLabel('Message').fill('hello');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByText('Just talking, no tools here.').isVisible(), { timeout: UI_WAIT })
      .toBe(true);
    expect(ui.model.requests.at(-1)?.body.tools?.map((t) => t.name)).toEqual(['AskUserQuestion']);
    await screenshot(page, 'conversation-only');
    expect(errors).toEqual([]);
    await context.close();
  });
});
