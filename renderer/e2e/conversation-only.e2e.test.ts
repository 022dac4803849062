// A conversation-only server in the browser: what it does not offer is hidden (projects, folders, the kernel
// panel; that the kernel routes answer `conversation_only` is proven by sidecar/test/server/kernel-routes.test.ts),
// and chatting still works.
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite';
import { screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
const UI_WAIT = 20_000;

const suite = browserSuite({ env: { CAIRN_CONVERSATION_ONLY: 'true' }, timeoutMs: TEST_TIMEOUT });

describe('conversation-only mode', () => {
  it('hides projects and folders, and a chat runs without tools', { timeout: TEST_TIMEOUT }, async () => {
    const page = await suite.openPage();
    const newChat = page.getByRole('button', { name: 'New chat' });
    await expect.poll(() => newChat.first().isVisible(), { timeout: UI_WAIT }).toBe(true);
    // No project section, no "Open folder" anywhere: the server has no projects.
    expect(await page.getByRole('button', { name: 'Open folder' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Projects' }).count()).toBe(0);

    suite.ui.replies.enqueue({ content: [{ type: 'text', text: 'Just talking, no tools here.' }] });
    await newChat.first().click();
    await page.getByLabel('Message').fill('hello');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByText('Just talking, no tools here.').isVisible(), { timeout: UI_WAIT })
      .toBe(true);
    // ToolControl answers about calls and the runtime; nothing here runs commands or touches files.
    expect(suite.ui.model.requests.at(-1)?.body.tools?.map((t) => t.name)).toEqual([
      'AskUserQuestion',
      'Context',
      'Fork',
      'ToolControl',
    ]);
    await screenshot(page, 'conversation-only');
  });

  it('shows no kernel panel and calls no kernel route', { timeout: TEST_TIMEOUT }, async () => {
    const page = await suite.openPage({ goto: false });
    const kernelCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/\/kernels(\/|$)/.test(url.pathname) || url.searchParams.has('type_prefix')) {
        kernelCalls.push(`${request.method()} ${url.pathname}${url.search}`);
      }
    });
    // The panel is decided by what the server says it offers: wait until the page has heard that.
    const capabilities = page.waitForResponse(
      (response: Response) => new URL(response.url()).pathname === '/api/capabilities' && response.ok(),
      { timeout: UI_WAIT },
    );
    await page.goto(suite.ui.server.browserUrl);
    expect(await (await capabilities).json()).toMatchObject({ kernels: false });

    const newChat = page.getByRole('button', { name: 'New chat' });
    await expect.poll(() => newChat.first().isVisible(), { timeout: UI_WAIT }).toBe(true);
    await newChat.first().click();
    const toggle = page.getByRole('button', { name: 'Toggle side panel' });
    await expect.poll(() => toggle.isVisible(), { timeout: UI_WAIT }).toBe(true);
    await toggle.click();

    const sidePanel = page.getByRole('complementary', { name: 'Toggle side panel' });
    await expect.poll(() => sidePanel.isVisible(), { timeout: UI_WAIT }).toBe(true);
    // The session's context and experiences need no kernel; nothing of kernels, MCP or background tasks
    // (nothing here runs commands) shows beside them.
    const experiences = sidePanel.getByRole('heading', { name: 'Experiences' });
    await expect.poll(() => experiences.isVisible(), { timeout: UI_WAIT }).toBe(true);

    // A chat still runs; by its end the page has had every chance to mount a panel or load kernels.
    suite.ui.replies.enqueue({ content: [{ type: 'text', text: 'No kernels on this server.' }] });
    await page.getByLabel('Message').fill('hello');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByText('No kernels on this server.').isVisible(), { timeout: UI_WAIT })
      .toBe(true);

    expect(await page.getByRole('region', { name: 'Kernels' }).count()).toBe(0);
    expect(await page.getByTestId('kernel-cell').count()).toBe(0);
    expect(await sidePanel.getByRole('heading').allTextContents()).toEqual(['Context', 'Experiences']);
    expect(kernelCalls).toEqual([]);
    await screenshot(page, 'kernel-panel-hidden');
  });
});
