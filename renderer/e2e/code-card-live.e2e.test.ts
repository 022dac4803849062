// A running execute_code card in headless Chromium against a real sidecar and a real IPython kernel: the
// cell's output shows in the card while it runs (the tool journals it as kernel events, not tool.output),
// and once the call is cancelled the card lays out what the cell did, with why it stopped as a note (the
// stored result is the JSON object followed by call-outcome.ts's stop line), never the raw JSON.
import { describe, expect, it } from 'vitest';
import { CairnClient } from '../../sidecar/src/client';
import { HAS_MATPLOTLIB_PYTHON, IPYTHON_KERNEL_ENV } from '../../sidecar/test/support/kernel-harness';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 180_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 60_000;
const TITLE = 'live code';
const SLOW = '# count slowly\nimport time\nprint("started", flush=True)\ntime.sleep(120)';

const suite = browserSuite({ env: IPYTHON_KERNEL_ENV, timeoutMs: TEST_TIMEOUT });

describe.skipIf(!HAS_MATPLOTLIB_PYTHON)('a running execute_code card', () => {
  it('shows the cell output while it runs, and lays out the cancelled result with its note', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const { ui } = suite;
    const { sessionId } = createSession(ui, TITLE);
    ui.server.core.store.sessions.update(sessionId, { approval: 'auto' });
    ui.replies.enqueue(
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: SLOW } }] },
      { content: [{ type: 'text', text: 'It was stopped.' }] },
    );

    const page = await suite.openPage();
    await page.getByRole('navigation').getByRole('button', { name: TITLE, exact: true }).click();
    const composer = page.getByLabel('Message');
    await composer.fill('Count slowly');
    await composer.press('Enter');

    const card = page.locator('.tool-card[data-tool="execute_code"]');
    await card.waitFor({ timeout: UI_WAIT });
    await card.locator('.tool-card-header').click();
    const stdout = card.locator('[data-stream="stdout"]');
    await expect.poll(() => stdout.textContent(), { timeout: UI_WAIT }).toContain('started');
    expect(await card.getAttribute('class')).toContain('tool-card--running');
    await screenshot(page, 'code-card-running');

    const callId = await card.getAttribute('data-call-id');
    if (!callId) throw new Error('the running card has no call id');
    await new CairnClient({ url: ui.server.url, token: ui.server.token }).cancelToolCall(callId);
    await page.getByText('It was stopped.').waitFor({ timeout: UI_WAIT });
    const note = card.getByRole('note');
    await note.waitFor({ timeout: UI_WAIT });
    expect(await note.textContent()).toContain('The call was cancelled; everything it started was stopped.');
    expect(await card.locator('[data-stream="stdout"]').textContent()).toContain('started');
    expect(await card.textContent()).not.toContain('"success"');
    await screenshot(page, 'code-card-cancelled');
  });
});
