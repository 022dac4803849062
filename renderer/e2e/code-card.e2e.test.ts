// The execute_code card in headless Chromium against a real sidecar and a real IPython kernel (Debian's
// python3 with matplotlib): one scripted turn runs a cell that plots (the figure shows in the chat card, its
// collapsed line reads "plot squares (image)"), a cell that displays HTML with a script trying to reach the
// page (it shows in a sandboxed frame and its script never runs), and a cell that raises (the error first,
// its line pointed at). Screenshots in light, dark and Chinese.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAS_MATPLOTLIB_PYTHON, IPYTHON_KERNEL_ENV } from '../../sidecar/test/support/kernel-harness';
import type { ScriptedReply } from '../../sidecar/test/support/model-server';
import { browserSuite } from './support/browser-suite';
import { ARTIFACTS_DIR, createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 180_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 30_000;
const TITLE = 'code cards';

const PLOT = "# plot squares\nimport matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.title('squares')";
// Every way out it could try: the parent's title and body, its own title, the API, a new window.
const HOSTILE_HTML =
  '<h3 id="greeting">Hello from HTML</h3><table><tr><td>1</td><td>4</td></tr></table>' +
  '<script>document.body.dataset.ran = "yes"; document.title = "ran";' +
  'parent.document.title = "owned"; top.document.body.innerHTML = "owned";' +
  'fetch("/api/sessions"); window.open("https://example.com/")</script>';
const HTML_CELL = `# show a table\nfrom IPython.display import HTML, display\ndisplay(HTML(${JSON.stringify(HOSTILE_HTML)}))`;
const FAILING = '# divide by zero\nvalues = [1, 2, 0]\nratios = [10 / v for v in values]\nratios';

const suite = browserSuite({ env: IPYTHON_KERNEL_ENV, timeoutMs: TEST_TIMEOUT });

const codeCards = (page: Page) => page.locator('.tool-card[data-tool="execute_code"]');

async function openSession(page: Page) {
  await page.getByRole('navigation').getByRole('button', { name: TITLE, exact: true }).click();
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
  await expect.poll(() => codeCards(page).count(), { timeout: UI_WAIT }).toBe(3);
}

/** Opens a card by its header and waits for its body. */
async function open(card: Locator): Promise<void> {
  await card.locator('.tool-card-header').click();
  await card.locator('.code-view').waitFor({ timeout: UI_WAIT });
}

/** The image in the card, once loaded and decoded (its natural width). */
async function imageWidth(card: Locator): Promise<number> {
  const image = card.locator('img.code-card-image');
  if ((await image.count()) === 0) return 0;
  return image.evaluate((img) => (img as HTMLImageElement).naturalWidth);
}

/** All three cards open, the page tall enough to show them, saved as test-results/e2e/code-card-NAME.png. */
async function screenshotCards(page: Page, name: string) {
  for (const card of await codeCards(page).all()) await open(card);
  await expect.poll(() => imageWidth(codeCards(page).nth(0)), { timeout: UI_WAIT }).toBeGreaterThan(100);
  await page.setViewportSize({ width: 1280, height: 2000 });
  await codeCards(page).nth(0).scrollIntoViewIfNeeded();
  await screenshot(page, `code-card-${name}`);
}

describe.skipIf(!HAS_MATPLOTLIB_PYTHON)('the execute_code card', () => {
  it('shows a figure inline, HTML in a sandbox its script cannot leave, and an error at its line', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const { ui } = suite;
    const { sessionId } = createSession(ui, TITLE);
    ui.server.core.store.sessions.update(sessionId, { approval: 'auto' });
    const call = (code: string): ScriptedReply => ({
      content: [{ type: 'tool_use', name: 'execute_code', input: { code } }],
    });
    ui.replies.enqueue(call(PLOT), call(HTML_CELL), call(FAILING), {
      content: [{ type: 'text', text: 'Plotted, shown, and one cell failed.' }],
    });

    const page = await suite.openPage();
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.frame() !== page.mainFrame()) requests.push(request.url());
    });
    await page.getByRole('navigation').getByRole('button', { name: TITLE, exact: true }).click();
    const composer = page.getByLabel('Message');
    await composer.fill('Plot the squares, show a table, then divide by zero');
    await composer.press('Enter');
    await page.getByText('Plotted, shown, and one cell failed.').waitFor({ timeout: UI_WAIT });
    const [plot, html, failing] = await codeCards(page).all();
    if (!plot || !html || !failing) throw new Error('expected three execute_code cards');

    // Collapsed, each line says what the cell was for and what it made; never JSON.
    expect(await plot.locator('.tool-card-summary').textContent()).toBe('plot squares (image)');
    expect(await html.locator('.tool-card-summary').textContent()).toBe('show a table (HTML)');
    expect(await failing.locator('.tool-card-summary').textContent()).toBe('divide by zero');

    // The figure, fetched by id and shown from memory, really decoded.
    await open(plot);
    await expect.poll(() => imageWidth(plot), { timeout: UI_WAIT }).toBeGreaterThan(100);
    const src = (await plot.locator('img.code-card-image').getAttribute('src')) ?? '';
    expect(src.startsWith('blob:')).toBe(true);
    expect(src).not.toContain(ui.server.token);
    expect(await plot.locator('.code-view').textContent()).toContain("plt.title('squares')");

    // The HTML, in a frame with no permission: its text shows, its script never ran, the page is untouched.
    const titleBefore = await page.title();
    await open(html);
    const frameElement = html.locator('iframe.code-card-html');
    await frameElement.waitFor({ timeout: UI_WAIT });
    expect(await frameElement.getAttribute('sandbox')).toBe('');
    const frame = html.frameLocator('iframe.code-card-html');
    await frame.locator('#greeting').waitFor({ timeout: UI_WAIT });
    expect(await frame.locator('#greeting').textContent()).toBe('Hello from HTML');
    expect(await frame.locator('body').getAttribute('data-ran')).toBeNull();
    expect(await page.title()).toBe(titleBefore);
    expect(await page.locator('body').getAttribute('data-ran')).toBeNull();
    expect(await page.getByText('Plotted, shown, and one cell failed.').isVisible()).toBe(true);
    expect(page.context().pages()).toHaveLength(1);
    expect(requests).toEqual([]);

    // The failed cell: its error before its code, the failing line marked with the carets under it.
    await open(failing);
    // The code shows while the whole result loads; the error section arrives with it.
    await failing.locator('.code-card-error-type').waitFor({ timeout: UI_WAIT });
    const sections = failing.locator('.tool-card-section');
    expect(await sections.first().getAttribute('aria-label')).toBe('Error');
    expect(await failing.locator('.code-card-error-type').textContent()).toBe('ZeroDivisionError');
    const line = failing.locator('.code-card-line--failing');
    expect(await line.textContent()).toContain('ratios = [10 / v for v in values]');
    expect(await line.textContent()).toContain('→ 3');
    expect(await failing.locator('.code-card-error-where').textContent()).toBe('Line 3');
    expect(await failing.locator('details.code-card-traceback').getAttribute('open')).toBeNull();
    expect(await sections.nth(1).getAttribute('aria-label')).toBe('Code');
    await failing
      .locator('.code-card-error')
      .screenshot({ path: path.join(ARTIFACTS_DIR, 'code-card-error.png') });

    await page.setViewportSize({ width: 1280, height: 2000 });
    await plot.scrollIntoViewIfNeeded();
    await screenshot(page, 'code-card-light');

    const dark = await suite.openPage({ colorScheme: 'dark' });
    await openSession(dark);
    await screenshotCards(dark, 'dark');
    const zh = await suite.openPage({ locale: 'zh-CN' });
    await openSession(zh);
    await screenshotCards(zh, 'zh-CN');
    expect(await codeCards(zh).nth(2).locator('.code-card-error-where').textContent()).toBe('第 3 行');
  });
});
