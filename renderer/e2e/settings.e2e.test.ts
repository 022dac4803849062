// Settings in a browser: a model added and its key stored in a real Secret Service (gnome-keyring on a
// private D-Bus). Its own file, so the keyring is in the environment before keytar first connects.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useKeyringInProcess } from '../../sidecar/test/support/keyring-in-process';
import { launchChromium, newContext, screenshot, startUiServer, type UiServer } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
const UI_WAIT = 20_000;
const KEY = 'sk-ant-e2e-keychain-5e1f2a3b4c5d6e7f';

describe('Settings: a model and its write-only key, with a real keyring', () => {
  // Before the server starts: keytar connects to the session bus it names on its first use.
  useKeyringInProcess();
  let ui: UiServer;
  let browser: Browser;

  beforeAll(async () => {
    // No key or model from the environment: the keychain is the only source.
    ui = await startUiServer({ env: { CAIRN_ANTHROPIC_API_KEY: undefined, CAIRN_MODEL: undefined } });
    browser = await launchChromium();
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
  }, TEST_TIMEOUT);

  it(
    'adds a model, saves its key to the keychain, never shows the key, and uses it for a turn',
    async () => {
      const context = await newContext(browser);
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(ui.server.browserUrl);

      // No model yet: the banner leads to Settings.
      const banner = page.getByText('No model key is set.');
      await banner.waitFor({ timeout: UI_WAIT });
      await page.getByRole('button', { name: 'Open settings' }).click();
      await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor({ timeout: UI_WAIT });
      await page.getByText('No model is configured yet. Add one to start a conversation.').waitFor();

      await page.getByRole('button', { name: 'Add model' }).click();
      const form = page.getByRole('form', { name: 'Add a model' });
      await form.waitFor();
      await form.getByLabel('Name', { exact: true }).fill('E2E model');
      await form.getByLabel('Model ID', { exact: true }).fill('cairn-test-model');
      await form.getByLabel('Base URL (optional)').fill(ui.model.url);
      await form.getByRole('button', { name: 'Add model' }).click();
      await form.waitFor({ state: 'detached', timeout: UI_WAIT });

      const row = page.getByRole('listitem').filter({ hasText: 'E2E model' });
      await row.waitFor({ timeout: UI_WAIT });
      expect(await row.getByText('Key not set').isVisible()).toBe(true);
      const keyInput = page.getByRole('textbox', { name: 'API key for E2E model' });
      expect(await keyInput.getAttribute('type')).toBe('password');
      await keyInput.fill(KEY);
      await page.getByRole('button', { name: 'Save the API key for E2E model' }).click();
      await page.getByText('Key saved.').waitFor({ timeout: UI_WAIT });
      await row.getByText('Key set', { exact: true }).waitFor({ timeout: UI_WAIT });

      // The key is nowhere in the page: not in the field, not in the markup, not in an attribute.
      expect(await keyInput.inputValue()).toBe('');
      expect(await page.content()).not.toContain(KEY);
      const inPage = await page.evaluate(
        (key) =>
          document.documentElement.outerHTML.includes(key) ||
          [...document.querySelectorAll('input')].some((input) => input.value.includes(key)) ||
          (document.body.textContent ?? '').includes(key),
        KEY,
      );
      expect(inPage).toBe(false);
      await screenshot(page, 'settings');

      // The server reports the key as set, and a turn uses it.
      const models = await ui.server.core.store.models.list();
      expect(models).toHaveLength(1);
      await page.getByRole('button', { name: 'Close settings' }).click();
      await banner.waitFor({ state: 'detached', timeout: UI_WAIT });
      await page.getByRole('button', { name: 'New chat' }).click();
      const composer = page.getByLabel('Message');
      await composer.waitFor({ timeout: UI_WAIT });
      ui.replies.enqueue({ content: [{ type: 'text', text: 'Hello from the keychain model.' }] });
      await composer.fill('Hello');
      await composer.press('Enter');
      await page.getByText('Hello from the keychain model.').waitFor({ timeout: UI_WAIT });
      expect(ui.model.requests.at(-1)?.apiKey).toBe(KEY);
      expect(await page.content()).not.toContain(KEY);

      await context.close();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
