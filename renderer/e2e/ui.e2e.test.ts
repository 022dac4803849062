// The web UI against a real sidecar and the scripted model server, in headless Debian Chromium.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedBlock } from '../../sidecar/test/support/model-server';
import {
  cancelRunningTurns,
  createSession,
  launchChromium,
  newContext,
  screenshot,
  seedTurns,
  startUiServer,
  type UiServer,
} from './support/cairn-ui';
import { writeFromScript } from './support/script-call';
import { startTcpRelay } from './support/tcp-relay';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;

let ui: UiServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  ui = await startUiServer();
  browser = await launchChromium();
}, TEST_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
}, TEST_TIMEOUT);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  await cancelRunningTurns(ui);
  ui.replies.reset();
  const errors = pageErrors.splice(0);
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

interface OpenOptions {
  colorScheme?: 'light' | 'dark';
  locale?: string;
  /** Where the page reaches the server (default: the server itself). */
  origin?: string;
}

/** A fresh tab (fresh sessionStorage) on the app, opened with the token in the fragment. */
async function openApp(options: OpenOptions = {}): Promise<Page> {
  const context = await newContext(browser, options);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
  await page.goto(options.origin ? `${options.origin}/#token=${ui.server.token}` : ui.server.browserUrl);
  await expect.poll(() => sidebar(page).isVisible(), { timeout: UI_WAIT }).toBe(true);
  return page;
}

function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Projects' });
}

function transcript(page: Page): Locator {
  return page.getByTestId('transcript');
}

function turns(page: Page): Locator {
  return page.locator('article.turn');
}

/** Opens a session by its title in the sidebar and waits for its conversation. */
async function openSession(page: Page, title: string): Promise<void> {
  await sidebar(page).getByRole('button', { name: title, exact: true }).click();
  await page.getByRole('region', { name: title }).waitFor({ timeout: UI_WAIT });
  await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: UI_WAIT });
}

/** A session made on the server before the page loads, so the sidebar lists it. */
async function pageWithSession(title: string, options: OpenOptions = {}) {
  const { sessionId } = createSession(ui, title);
  const page = await openApp(options);
  await openSession(page, title);
  return { page, sessionId };
}

async function send(page: Page, prompt: string): Promise<void> {
  const box = page.getByLabel('Message');
  await box.fill(prompt);
  await box.press('Enter');
}

async function waitForTurnStatus(page: Page, index: number, status: string): Promise<void> {
  await expect
    .poll(() => turns(page).nth(index).getAttribute('data-status'), { timeout: UI_WAIT })
    .toBe(status);
}

/** What the model was sent as the last user message, flattened to a string. */
function lastUserContent(requestIndex: number): string {
  const request = ui.model.requests[requestIndex];
  if (!request) return '';
  return JSON.stringify(request.body.messages.at(-1)?.content ?? null);
}

/** Per turn: the prompt, the Markdown texts and the tool cards (name + status), as the page shows them. */
async function transcriptDigest(page: Page): Promise<string[][]> {
  return turns(page).evaluateAll((articles) =>
    articles.map((article) => [
      article.getAttribute('data-status') ?? '',
      ...[...article.querySelectorAll('.user-message p, .md, .tool-card-name, .tool-status')].map(
        (el) => el.textContent?.trim() ?? '',
      ),
    ]),
  );
}

const MARKDOWN_ANSWER = [
  'Here is what I found:',
  '',
  '| File | Lines |',
  '| --- | --- |',
  '| alpha.ts | 10 |',
  '| beta.ts | 20 |',
  '',
  '```ts',
  'const answer: number = 42;',
  '```',
  '',
  'Now I run a command.',
].join('\n');

describe('Cairn in a browser, against a real sidecar', () => {
  it(
    'takes the token from the fragment, removes it from the address bar, and survives a reload',
    async () => {
      const page = await openApp();
      expect(page.url()).not.toContain('token=');
      expect(page.url()).not.toContain(ui.server.token);
      const stored = await page.evaluate(() => sessionStorage.getItem('cairn.token'));
      expect(stored).toBe(ui.server.token);
      await expect
        .poll(() => page.getByRole('heading', { name: 'Open a folder to start' }).isVisible())
        .toBe(true);
      await screenshot(page, 'empty-state');

      await page.reload();
      await expect.poll(() => sidebar(page).isVisible(), { timeout: UI_WAIT }).toBe(true);
      expect(page.url()).not.toContain('token=');
      expect(await page.getByRole('heading', { name: 'Connect to a Cairn server' }).count()).toBe(0);
      expect(await page.evaluate(() => sessionStorage.getItem('cairn.token'))).toBe(ui.server.token);
    },
    TEST_TIMEOUT,
  );

  it(
    'opens a project folder, sends with Enter, renders Markdown and a tool card with its command and output',
    async () => {
      const page = await openApp();
      await page.getByRole('button', { name: 'Open folder' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Open a project folder' });
      await dialog.waitFor();
      const pathBox = dialog.getByLabel('Folder path on the server');

      const missing = `${ui.projectDir}-does-not-exist`;
      await pathBox.fill(missing);
      await dialog.getByRole('button', { name: 'Open', exact: true }).click();
      const alert = dialog.getByRole('alert');
      await alert.waitFor({ timeout: UI_WAIT });
      expect(await alert.textContent()).toContain('does not exist');

      await pathBox.fill(ui.projectDir);
      await dialog.getByRole('button', { name: 'Open', exact: true }).click();
      await dialog.waitFor({ state: 'detached', timeout: UI_WAIT });
      const composer = page.getByLabel('Message');
      await composer.waitFor({ timeout: UI_WAIT });
      const projectName = ui.projectDir.split('/').at(-1)!;
      await expect.poll(() => sidebar(page).getByText(projectName, { exact: true }).isVisible()).toBe(true);

      const requestsBefore = ui.model.requests.length;
      ui.replies.enqueue(
        {
          delayMs: 10,
          content: [
            { type: 'text', text: MARKDOWN_ANSWER },
            { type: 'tool_use', name: 'Bash', input: { command: 'echo hello-from-tool' } },
          ],
        },
        { delayMs: 10, content: [{ type: 'text', text: 'The command printed its greeting.' }] },
      );
      await send(page, 'Summarize the files, then run echo');

      // The prompt shows at once; the answer streams in as Markdown.
      await page.locator('.user-message', { hasText: 'Summarize the files, then run echo' }).waitFor();
      const table = transcript(page).locator('table');
      await table.waitFor({ timeout: UI_WAIT });
      expect(await table.locator('tbody tr').count()).toBe(2);
      expect(await table.textContent()).toContain('beta.ts');
      const code = transcript(page).locator('.md-code');
      await code.waitFor();
      expect(await code.locator('pre').textContent()).toContain('const answer: number = 42;');
      expect(await code.getByRole('button', { name: 'Copy code' }).isVisible()).toBe(true);

      // The tool card: name and status collapsed; the command and its output expanded.
      const card = transcript(page).locator('.tool-card[data-tool="Bash"]');
      await card.waitFor({ timeout: UI_WAIT });
      const header = card.getByRole('button', { name: /Bash/ });
      expect(await header.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('Done');
      expect(await card.locator('.tool-card-summary').textContent()).toBe('echo hello-from-tool');
      await page.getByText('The command printed its greeting.').waitFor({ timeout: UI_WAIT });
      await waitForTurnStatus(page, 0, 'completed');
      // The sidebar's running dot goes once the turn is over.
      await expect.poll(() => sidebar(page).locator('.running-dot').count(), { timeout: UI_WAIT }).toBe(0);

      await header.click();
      expect(await header.getAttribute('aria-expanded')).toBe('true');
      await expect
        .poll(() => card.locator('.tool-card-pre').allTextContents())
        .toContainEqual(expect.stringContaining('hello-from-tool'));
      // Open, the card holds the whole result (fetched with the token) and the command highlighted.
      const output = card.getByRole('region', { name: 'Output' });
      await expect
        .poll(() => output.locator('pre').textContent(), { timeout: UI_WAIT })
        .toContain('hello-from-tool');
      expect(await card.getByRole('region', { name: 'Command' }).locator('code').textContent()).toContain(
        'echo hello-from-tool',
      );
      await screenshot(page, 'conversation-tool-card');

      // The model got the command's output back.
      expect(ui.model.requests.length).toBe(requestsBefore + 2);
      expect(lastUserContent(requestsBefore + 1)).toContain('hello-from-tool');
    },
    TEST_TIMEOUT,
  );

  it(
    'shows a question inline, keeps it across a reload, and sends the chosen option to the model',
    async () => {
      const title = 'question session';
      const { page } = await pageWithSession(title);
      const before = ui.model.requests.length;
      ui.replies.enqueue(
        {
          content: [
            {
              type: 'tool_use',
              name: 'AskUserQuestion',
              input: { question: 'Which colour should the button be?', options: ['Red', 'Blue'] },
            },
          ],
        },
        { content: [{ type: 'text', text: 'Blue it is.' }] },
      );
      await send(page, 'Style the button');
      const card = () => page.getByRole('region', { name: 'The agent asks' });
      await card().waitFor({ timeout: UI_WAIT });
      expect(await card().textContent()).toContain('Which colour should the button be?');
      await screenshot(page, 'question-card');

      await page.reload();
      await expect.poll(() => sidebar(page).isVisible(), { timeout: UI_WAIT }).toBe(true);
      await openSession(page, title);
      await card().waitFor({ timeout: UI_WAIT });
      expect(await card().textContent()).toContain('Which colour should the button be?');

      await card().getByRole('button', { name: 'Blue', exact: true }).click();
      await page.getByText('Blue it is.').waitFor({ timeout: UI_WAIT });
      await waitForTurnStatus(page, 0, 'completed');
      expect(await card().getByRole('status').textContent()).toBe('Answered: Blue');
      expect(ui.model.requests.length).toBe(before + 2);
      expect(lastUserContent(before + 1)).toContain('The user answered: Blue');
    },
    TEST_TIMEOUT,
  );

  it(
    'asks before a side-effecting tool when approval is on, and a denial shows on the cards',
    async () => {
      const title = 'approval session';
      const { page, sessionId } = await pageWithSession(title);
      await page.getByRole('combobox', { name: /^Approval/ }).selectOption({ label: 'Ask' });
      await expect
        .poll(() => ui.server.core.store.sessions.get(sessionId)?.approval, { timeout: UI_WAIT })
        .toBe('ask');

      const before = ui.model.requests.length;
      ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo approved-run > ran.txt' } }] },
        { content: [{ type: 'text', text: 'Understood, I did not run it.' }] },
      );
      await send(page, 'Write ran.txt');
      const approval = page.getByRole('region', { name: 'Allow Bash?' });
      await approval.waitFor({ timeout: UI_WAIT });
      // The answers load when an approval first waits (a lazy part): wait for them, not only the card.
      await approval.getByRole('button', { name: 'Allow once', exact: true }).waitFor({ timeout: UI_WAIT });
      const card = transcript(page).locator('.tool-card[data-tool="Bash"]');
      expect(await card.locator('.tool-status').textContent()).toBe('Waiting for approval');
      await screenshot(page, 'approval-card');

      await approval.getByRole('button', { name: 'Deny', exact: true }).click();
      await expect
        .poll(() => approval.getByRole('status').textContent(), { timeout: UI_WAIT })
        .toBe('Denied');
      await expect
        .poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT })
        .toBe('Denied');
      await page.getByText('Understood, I did not run it.').waitFor({ timeout: UI_WAIT });
      await waitForTurnStatus(page, 0, 'completed');
      expect(lastUserContent(before + 1)).toContain('denied');
    },
    TEST_TIMEOUT,
  );

  it(
    'shows a long Write whole in a scrolling box, with Allow and Deny on screen and reachable by keyboard',
    async () => {
      const title = 'long write approval';
      const { sessionId } = createSession(ui, title);
      ui.server.core.store.sessions.update(sessionId, { approval: 'ask' });
      const page = await openApp();
      await openSession(page, title);

      const content = Array.from({ length: 300 }, (_, i) => `line ${i + 1} of the new file`).join('\n');
      ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Write', input: { path: 'long.txt', content } }] },
        { content: [{ type: 'text', text: 'Left long.txt alone.' }] },
      );
      await send(page, 'Write long.txt');
      const approval = page.getByRole('region', { name: 'Allow Write?' });
      await approval.waitFor({ timeout: UI_WAIT });
      const box = approval.getByRole('region', { name: 'Content to write' }).locator('pre');
      expect(await box.textContent()).toContain('line 300 of the new file');
      // The content scrolls inside its box, and the whole card, buttons included, fits on screen.
      const scroll = () =>
        box.evaluate((el) => ({ top: el.scrollTop, height: el.scrollHeight, view: el.clientHeight }));
      const { height, view } = await scroll();
      expect(height).toBeGreaterThan(view);
      // While the end of the box is out of sight, a note under it says there is more.
      const more = approval.getByText('More below: 300 lines in all, scroll to read to the end.');
      expect(await more.isVisible()).toBe(true);
      await approval.scrollIntoViewIfNeeded();
      const viewport = page.viewportSize()?.height ?? 0;
      for (const name of ['Allow once', 'Deny']) {
        await approval.getByRole('button', { name, exact: true }).waitFor({ timeout: UI_WAIT });
        const bounds = await approval.getByRole('button', { name, exact: true }).boundingBox();
        expect(bounds && bounds.y >= 0 && bounds.y + bounds.height <= viewport, name).toBe(true);
      }
      await screenshot(page, 'approval-long-write');

      // Keyboard: the box takes focus and scrolls with End; Tab then reaches Allow.
      await box.focus();
      await page.keyboard.press('End');
      await expect.poll(async () => (await scroll()).top, { timeout: UI_WAIT }).toBeGreaterThan(0);
      await expect.poll(() => more.count(), { timeout: UI_WAIT }).toBe(0);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');

      await approval.getByRole('button', { name: 'Deny', exact: true }).click();
      await page.getByText('Left long.txt alone.').waitFor({ timeout: UI_WAIT });
      expect(fs.existsSync(path.join(ui.projectDir, 'long.txt'))).toBe(false);
    },
    TEST_TIMEOUT,
  );

  it(
    'turns Send into Cancel while streaming, and Escape cancels the turn',
    async () => {
      const { page } = await pageWithSession('cancel session');
      ui.replies.enqueue({ content: [{ type: 'text', text: 'Starting a very long answer' }], hang: true });
      expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(true);
      await send(page, 'Write a novel');
      const cancel = page.getByRole('button', { name: 'Cancel (Esc)' });
      await cancel.waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
      await page.getByText('Starting a very long answer').waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('status', { name: 'The agent is working' }).count()).toBe(1);

      await page.keyboard.press('Escape');
      await waitForTurnStatus(page, 0, 'cancelled');
      await page.locator('.turn-status--cancelled', { hasText: 'Cancelled' }).waitFor({ timeout: UI_WAIT });
      await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('status', { name: 'The agent is working' }).count()).toBe(0);
      await ui.model.waitForDisconnect();
    },
    TEST_TIMEOUT,
  );

  it(
    'shows the same history after a reload',
    async () => {
      const title = 'history session';
      const { page } = await pageWithSession(title);
      ui.replies.enqueue({ content: [{ type: 'text', text: MARKDOWN_ANSWER }] });
      await send(page, 'First question');
      await waitForTurnStatus(page, 0, 'completed');
      ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo second-turn' } }] },
        { content: [{ type: 'text', text: 'Second answer, after **a tool**.' }] },
      );
      await send(page, 'Second question');
      await waitForTurnStatus(page, 1, 'completed');
      ui.replies.enqueue({ content: [{ type: 'text', text: 'Interrupted answer' }], hang: true });
      await send(page, 'Third question');
      await page.getByText('Interrupted answer').waitFor({ timeout: UI_WAIT });
      await page.getByRole('button', { name: 'Cancel (Esc)' }).click();
      await waitForTurnStatus(page, 2, 'cancelled');
      await ui.model.waitForDisconnect();

      const live = await transcriptDigest(page);
      expect(live).toHaveLength(3);
      expect(live[1]).toContain('Done');

      await page.reload();
      await expect.poll(() => sidebar(page).isVisible(), { timeout: UI_WAIT }).toBe(true);
      await openSession(page, title);
      await expect.poll(() => turns(page).count(), { timeout: UI_WAIT }).toBe(3);
      expect(await transcriptDigest(page)).toEqual(live);
    },
    TEST_TIMEOUT,
  );

  it(
    '"Load earlier" reaches the first turn of a 65-turn session',
    async () => {
      const title = 'long session';
      const { sessionId } = createSession(ui, title);
      seedTurns(ui, sessionId, 65);
      const page = await openApp();
      await openSession(page, title);
      await page.getByText('answer 65', { exact: true }).waitFor({ timeout: UI_WAIT });
      expect(await page.getByText('prompt 1', { exact: true }).count()).toBe(0);

      const loadEarlier = page.getByRole('button', { name: 'Load earlier' });
      for (let clicks = 0; clicks < 10; clicks += 1) {
        await transcript(page).evaluate((el) => {
          el.scrollTop = 0;
        });
        if ((await page.locator('.load-earlier').count()) === 0) break;
        await loadEarlier.click({ timeout: UI_WAIT });
        // The button says "Loading…" while the page is fetched, then goes or comes back.
        await expect
          .poll(() => page.locator('.load-earlier button:disabled').count(), { timeout: UI_WAIT })
          .toBe(0);
      }
      await expect.poll(() => page.locator('.load-earlier').count(), { timeout: UI_WAIT }).toBe(0);

      const first = page.getByText('prompt 1', { exact: true });
      await expect
        .poll(
          async () => {
            await transcript(page).evaluate((el) => {
              el.scrollTop = 0;
            });
            return first.isVisible();
          },
          { timeout: UI_WAIT },
        )
        .toBe(true);
      expect(await page.locator('article.turn[data-turn-ordinal="1"]').count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  it(
    'shows every streamed event exactly once after the WebSocket drops mid-stream',
    async () => {
      // The page reaches the server through a relay the test can cut, as the network would fail.
      const relay = await startTcpRelay(ui.server.port);
      try {
        const { page, sessionId } = await pageWithSession('reconnect session', { origin: relay.url });
        const words = Array.from({ length: 200 }, (_, i) => `w${i + 1}`);
        // 50 blocks of 4 words; each block streams as 4 deltas that split words, so a repeated or
        // missing delta shows up as a broken or missing word.
        const blocks: ScriptedBlock[] = [];
        for (let i = 0; i < words.length; i += 4)
          blocks.push({ type: 'text', text: `${words.slice(i, i + 4).join(' ')} ` });
        // The reply never finishes: what the page shows is built from the deltas alone.
        ui.replies.enqueue({ content: blocks, delayMs: 15, hang: true });
        const { store } = ui.server.core;
        const deltas = () =>
          store.events.after(sessionId, 0).filter((e) => e.type === 'message.delta').length;

        await send(page, 'Count to two hundred');
        await expect.poll(() => transcriptText(page), { timeout: UI_WAIT }).toContain('w10 ');
        const banner = page.getByText('Connection lost. Reconnecting…');
        expect(await banner.count()).toBe(0);

        // The network fails mid-stream: the socket drops, and reconnecting cannot work for now.
        expect(deltas(), 'the reply is still streaming').toBeLessThan(200);
        relay.cut();
        await banner.waitFor({ timeout: UI_WAIT });
        // The rest of the reply is journaled while the page cannot receive it.
        await expect.poll(deltas, { timeout: UI_WAIT }).toBe(200);
        expect((await transcriptText(page)).split(/\s+/).filter(Boolean).length).toBeLessThan(200);
        relay.restore();
        await banner.waitFor({ state: 'detached', timeout: UI_WAIT });

        await expect.poll(() => transcriptText(page), { timeout: UI_WAIT }).toContain('w200');
        const shown = (await transcriptText(page)).split(/\s+/).filter(Boolean);
        expect(shown).toEqual(words);
        expect(await page.getByRole('img', { name: 'Connected' }).count()).toBe(1);

        await page.keyboard.press('Escape');
        await waitForTurnStatus(page, 0, 'cancelled');
        await ui.model.waitForDisconnect();
      } finally {
        await relay.close();
      }
    },
    TEST_TIMEOUT,
  );

  it(
    'renders the UI in Chinese after switching the language in Settings',
    async () => {
      const title = 'zh session';
      createSession(ui, title);
      const page = await openApp();
      await sidebar(page)
        .getByRole('button', { name: /Settings/ })
        .click();
      await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor({ timeout: UI_WAIT });
      await page.getByLabel('Display language').selectOption('zh-CN');
      await page.getByRole('heading', { name: '设置', exact: true }).waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('navigation', { name: '项目' }).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: '语言', exact: true }).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      await screenshot(page, 'settings-zh-CN');

      // The choice is remembered, and the conversation speaks Chinese too.
      await page.reload();
      await page.getByRole('navigation', { name: '项目' }).waitFor({ timeout: UI_WAIT });
      await page.getByRole('button', { name: title, exact: true }).click();
      await page.getByLabel('消息').waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('button', { name: '发送' }).isVisible()).toBe(true);
      expect(await page.getByLabel('审批').isVisible()).toBe(true);
      await screenshot(page, 'conversation-zh-CN');
    },
    TEST_TIMEOUT,
  );

  it(
    'shows the context meter, compacts now from the context view, and keeps experiences in the side panel',
    async () => {
      const { page, sessionId } = await pageWithSession('context session');
      seedTurns(ui, sessionId, 4, (i) => ({ prompt: `question ${i}`, answer: `answer ${i} `.repeat(200) }));
      await page.reload();
      await openSession(page, 'context session');
      const meter = page.getByTestId('context-meter');
      await meter.waitFor({ timeout: UI_WAIT });
      expect(await meter.textContent()).toContain('estimated');
      // The meter opens the side panel on its context section.
      await meter.click();
      const dialog = page.getByRole('complementary').locator('details.context-panel[open]');
      await dialog.waitFor({ timeout: UI_WAIT });
      // The meter read the size alone; the open section reads the units itself.
      await expect.poll(() => dialog.locator('.context-unit').count(), { timeout: UI_WAIT }).toBe(8);
      await screenshot(page, 'context-view');

      const summary = {
        goal: 'answer the questions',
        instruction: '',
        discoveries: ['four questions asked'],
        completed: ['answered all four'],
        current_status: 'waiting',
        likely_next_work: [],
        relevant_files_directories: [],
        remember: [],
      };
      ui.replies.enqueue({ content: [{ type: 'tool_use', name: 'write_summary', input: summary }] });
      await dialog.getByLabel('Level').selectOption('session');
      await dialog.getByRole('button', { name: 'Compact now' }).click();
      await expect
        .poll(() => dialog.getByRole('status').textContent(), { timeout: UI_WAIT })
        .toContain('Compacted to version 2');

      // The compaction sits after the last turn, with its summary and a way back to what came before.
      const card = transcript(page).getByTestId('compaction-card');
      await card.waitFor({ timeout: UI_WAIT });
      expect(await card.textContent()).toContain('Context compacted (Session, by you)');
      await card.getByText('Summary').click();
      expect(await card.textContent()).toContain('answered all four');
      await card.getByRole('button', { name: 'View the context before it' }).click();
      const version = dialog.getByRole('region', { name: 'What the model saw at version 1' });
      await version.waitFor({ timeout: UI_WAIT });
      await version.getByText('question 4', { exact: true }).waitFor({ timeout: UI_WAIT });
      await screenshot(page, 'context-version');

      const form = page.getByRole('form', { name: 'New experience' });
      await form.getByLabel('New experience').fill('answers are long');
      await form.getByRole('button', { name: 'Add' }).click();
      await page.locator('.experience-text', { hasText: 'answers are long' }).waitFor({ timeout: UI_WAIT });
      await expect
        .poll(() => ui.server.core.store.experiences.forSession(sessionId, null).map((e) => e.text))
        .toEqual(['answers are long']);
      await screenshot(page, 'experiences-panel');
    },
    TEST_TIMEOUT,
  );

  it(
    'shows a background task in the side panel with its output, cancels it, and nests its script call',
    async () => {
      const { page } = await pageWithSession('background session');
      const command = `echo tick-1; ${writeFromScript('from-script.txt')}; echo tick-2; sleep 300`;
      ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command, is_wait: false } }] },
        { content: [{ type: 'text', text: 'It runs in the background.' }] },
      );
      await send(page, 'Build it in the background');
      await waitForTurnStatus(page, 0, 'completed');
      // The card runs on after its turn, marked as a background task, with the script's Write under it.
      const card = transcript(page).locator('.tool-card[data-tool="Bash"]');
      expect(await card.locator('.tool-card-badge').textContent()).toBe('background');
      expect(await card.locator('.tool-status').textContent()).toBe('Running');
      const nested = transcript(page).getByRole('group', { name: 'Calls started by the script of Bash' });
      await expect
        .poll(() => nested.locator('.tool-card[data-tool="Write"] .tool-status').textContent(), {
          timeout: UI_WAIT,
        })
        .toBe('Done');

      await page.getByRole('button', { name: 'Toggle side panel' }).click();
      const panel = page.getByRole('region', { name: 'Background tasks' });
      const task = panel.getByRole('listitem', { name: /^Bash: echo tick-1/ });
      await expect
        .poll(() => task.getByTestId('background-tail').textContent(), { timeout: UI_WAIT })
        .toContain('tick-2');
      expect(await task.getByTestId('background-tail').textContent()).toContain('wrote: true');
      await screenshot(page, 'background-panel');
      await task.getByRole('button', { name: 'Cancel' }).click();
      await expect
        .poll(() => task.getByTestId('background-status').textContent(), { timeout: UI_WAIT })
        .toBe('Cancelled');
      await expect
        .poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT })
        .toBe('Cancelled');
      expect(fs.readFileSync(path.join(ui.projectDir, 'from-script.txt'), 'utf8')).toBe('hi');
    },
    TEST_TIMEOUT,
  );

  it(
    'looks sane in the dark colour scheme',
    async () => {
      const { page } = await pageWithSession('dark session', { colorScheme: 'dark' });
      ui.replies.enqueue(
        {
          content: [
            { type: 'tool_use', name: 'Bash', input: { command: 'printf "\\033[32mgreen\\033[0m ok\\n"' } },
          ],
        },
        { content: [{ type: 'text', text: MARKDOWN_ANSWER }] },
      );
      await send(page, 'Show me colours');
      await waitForTurnStatus(page, 0, 'completed');
      await transcript(page).locator('.tool-card-header').click();
      await screenshot(page, 'conversation-dark');
    },
    TEST_TIMEOUT,
  );
});

/** The text of the newest turn's Markdown blocks, joined by spaces. */
async function transcriptText(page: Page): Promise<string> {
  return turns(page)
    .last()
    .evaluate((article) => [...article.querySelectorAll('.md')].map((el) => el.textContent ?? '').join(' '));
}
