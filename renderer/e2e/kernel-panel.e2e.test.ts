// The kernel panel in headless Debian Chromium against a real sidecar with real Python kernels (Debian's
// python3 with IPython and matplotlib): the user's cells, an agent's cell, an image, input() and interrupt.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAS_MATPLOTLIB_PYTHON, IPYTHON_KERNEL_ENV } from '../../sidecar/test/support/kernel-harness';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 180_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 30_000;

const suite = browserSuite({ env: IPYTHON_KERNEL_ENV, timeoutMs: TEST_TIMEOUT });

async function openSession(title: string): Promise<Page> {
  createSession(suite.ui, title);
  const page = await suite.openPage();
  await page.getByRole('button', { name: title }).click();
  await expect.poll(() => page.locator('.session-title').textContent(), { timeout: UI_WAIT }).toBe(title);
  await page.getByRole('button', { name: 'Toggle side panel' }).click();
  await expect
    .poll(() => page.getByRole('region', { name: 'Kernels' }).isVisible(), { timeout: UI_WAIT })
    .toBe(true);
  return page;
}

const panel = (page: Page) => page.getByRole('region', { name: 'Kernels' });
const lastCell = (page: Page) => panel(page).getByTestId('kernel-cell').last();

/** Types a cell into the panel's editor and runs it with Ctrl+Enter. */
async function runCell(page: Page, code: string): Promise<void> {
  const editor = panel(page).getByRole('textbox', { name: /^Code to run in / });
  await editor.fill(code);
  await editor.press('Control+Enter');
  await expect.poll(() => editor.inputValue(), { timeout: UI_WAIT }).toBe('');
}

async function settled(page: Page, index: number): Promise<string | null> {
  const cell = panel(page).getByTestId('kernel-cell').nth(index);
  if ((await cell.count()) === 0) return null;
  return cell.getAttribute('data-status');
}

describe.skipIf(!HAS_MATPLOTLIB_PYTHON)('the kernel panel', () => {
  it('runs cells, shows a figure, answers input() and interrupts a sleeping cell', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const page = await openSession('kernel panel');

    await runCell(page, "print('hi'); 1+1");
    await expect.poll(() => settled(page, 0), { timeout: UI_WAIT }).toBe('done');
    expect(await lastCell(page).locator('[data-stream="stdout"]').textContent()).toBe('hi\n');
    expect(await lastCell(page).getByTestId('kernel-result').textContent()).toBe('2');
    // The variable list follows the results.
    await runCell(page, 'answer = 6 * 7');
    await expect.poll(() => settled(page, 1), { timeout: UI_WAIT }).toBe('done');
    await expect
      .poll(() => panel(page).locator('.kernel-variables').textContent(), { timeout: UI_WAIT })
      .toContain('answer');

    await runCell(
      page,
      'import matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.title("squares")\nNone',
    );
    await expect.poll(() => settled(page, 2), { timeout: UI_WAIT }).toBe('done');
    const image = lastCell(page).getByRole('img', { name: 'Output image' });
    await expect.poll(() => image.count(), { timeout: UI_WAIT }).toBe(1);
    // Shown from memory: a blob URL, with no token anywhere in it, and the PNG really decoded.
    const src = (await image.getAttribute('src')) ?? '';
    expect(src.startsWith('blob:')).toBe(true);
    expect(src).not.toContain(suite.ui.server.token);
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: UI_WAIT })
      .toBeGreaterThan(100);

    await runCell(page, "name = input('Your name? ')\nf'hello {name}'");
    const field = panel(page).getByRole('textbox', { name: 'Input for the running cell' });
    await expect.poll(() => field.isVisible(), { timeout: UI_WAIT }).toBe(true);
    expect(await panel(page).locator('.kernel-input-prompt').textContent()).toBe('Your name? ');
    await field.fill('Ada');
    await field.press('Enter');
    await expect.poll(() => settled(page, 3), { timeout: UI_WAIT }).toBe('done');
    expect(await lastCell(page).getByTestId('kernel-result').textContent()).toBe("'hello Ada'");
    expect(await field.count()).toBe(0);

    await runCell(page, 'import time; time.sleep(100)');
    await expect.poll(() => settled(page, 4), { timeout: UI_WAIT }).toBe('running');
    await expect
      .poll(() => panel(page).getByTestId('kernel-state').textContent(), { timeout: UI_WAIT })
      .toBe('busy');
    await screenshot(page, 'kernel-panel-running');
    await panel(page).getByRole('button', { name: 'Interrupt' }).click();
    await expect.poll(() => settled(page, 4), { timeout: UI_WAIT }).toBe('failed');
    expect(await lastCell(page).locator('.kernel-error').textContent()).toContain('KeyboardInterrupt');
    await expect
      .poll(() => panel(page).getByTestId('kernel-state').textContent(), { timeout: UI_WAIT })
      .toBe('idle');
    await panel(page)
      .locator('.kernel-cells')
      .evaluate((el) => {
        el.scrollTop = 0;
      });
    await screenshot(page, 'kernel-panel');
  });

  it("shows the agent's execute_code cell live, marked as the agent's", {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const page = await openSession('agent kernel');
    suite.ui.replies.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'execute_code', input: { code: "print('from the agent')\n3 * 3" } },
        ],
      },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    await page.getByRole('textbox', { name: /message/i }).fill('compute nine');
    await page.keyboard.press('Enter');
    await expect.poll(() => settled(page, 0), { timeout: UI_WAIT }).toBe('done');
    const cell = lastCell(page);
    expect(await cell.locator('.kernel-cell-origin').textContent()).toBe('Agent');
    expect(await cell.locator('[data-stream="stdout"]').textContent()).toBe('from the agent\n');
    expect(await cell.getByTestId('kernel-result').textContent()).toBe('9');
    await screenshot(page, 'kernel-panel-agent');
  });
});
