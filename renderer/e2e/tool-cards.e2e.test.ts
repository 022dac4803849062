// Tool cards in a browser against a real sidecar, with real tool calls from a scripted turn: a failed Bash
// (its error first, exit code, ANSI colours, head and tail of a long output), an Edit as a diff (unified and
// side by side), a Write that replaced a file as a diff and one that created a file highlighted, Read with
// its line numbers, Grep and Glob as lists of paths. Every collapsed line reads as words, never JSON. Screenshots
// in light, dark and Chinese.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;
const TITLE = 'tool cards';

const suite = browserSuite({ timeoutMs: TEST_TIMEOUT });

async function openSession(page: Page) {
  await page.getByRole('navigation').getByRole('button', { name: TITLE, exact: true }).click();
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
}

function card(page: Page, tool: string, nth = 0) {
  return page.locator(`[data-tool="${tool}"]`).nth(nth);
}

async function open(page: Page, tool: string, nth = 0) {
  const found = card(page, tool, nth);
  await found.locator('.tool-card-header').click();
  await found.locator('.tool-card-body .tool-card-section').first().waitFor({ timeout: UI_WAIT });
  return found;
}

describe('tool cards', () => {
  it(
    'show each call as what it did',
    async () => {
      const { ui } = suite;
      const file = (rel: string) => path.join(ui.projectDir, rel);
      fs.mkdirSync(file('src'), { recursive: true });
      fs.writeFileSync(
        file('src/app.ts'),
        'export function greet() {\n  return "hello";\n}\n// TODO: more\n',
      );
      fs.writeFileSync(file('src/util.ts'), 'export const two = 2;\n');
      fs.writeFileSync(file('notes.md'), '# Notes\n\nold text\n');
      const { sessionId } = createSession(ui, TITLE);
      ui.server.core.store.sessions.update(sessionId, { approval: 'auto' });
      const failing = "printf '\\033[31mred alert\\033[0m\\n'; seq 1 200; echo 'it broke' >&2; exit 3";
      ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: failing } }] },
        {
          content: [
            {
              type: 'tool_use',
              name: 'Edit',
              input: {
                path: 'src/app.ts',
                old_string: '  return "hello";',
                new_string: '  return "hello, world";\n  // greeted',
              },
            },
          ],
        },
        {
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { path: 'notes.md', content: '# Notes\n\nnew text\n' },
            },
          ],
        },
        {
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { path: 'src/new.py', content: 'def f():\n    return 1\n' },
            },
          ],
        },
        { content: [{ type: 'tool_use', name: 'Read', input: { path: 'src/app.ts', offset: 2, limit: 2 } }] },
        { content: [{ type: 'tool_use', name: 'Grep', input: { pattern: 'TODO|two', path: 'src' } }] },
        { content: [{ type: 'tool_use', name: 'Glob', input: { pattern: 'src/*.ts' } }] },
        { content: [{ type: 'text', text: 'All done.' }] },
      );

      const page = await suite.openPage();
      await openSession(page);
      const composer = page.getByLabel('Message');
      await composer.fill('Show me every card');
      await composer.press('Enter');
      await page.getByText('All done.').waitFor({ timeout: UI_WAIT });

      // Collapsed: a human line each, never JSON.
      const summaries = await page.locator('.tool-card .tool-card-summary').allTextContents();
      expect(summaries).toEqual([
        failing,
        'src/app.ts (+2 −1)',
        'notes.md (3 lines)',
        'src/new.py (2 lines)',
        'src/app.ts (lines 2–3)',
        'TODO|two in src',
        'src/*.ts',
      ]);
      for (const summary of summaries) expect(summary.startsWith('{')).toBe(false);
      await screenshot(page, 'tool-cards-collapsed');

      // The failed Bash: the error first, with its exit code, colours, and the long output's head and tail.
      const bash = await open(page, 'Bash');
      const labels = await bash.locator('.tool-card-label').allTextContents();
      expect(labels).toEqual(['Error', 'Command']);
      expect(await bash.locator('.tool-card-facts').textContent()).toMatch(/^Exit code 3 · /);
      expect(await bash.locator('.ansi-red-fg').first().textContent()).toBe('red alert');
      const showAll = bash.getByRole('button', { name: /^Show all \d+ lines$/ });
      await showAll.waitFor({ timeout: UI_WAIT });
      const [head, tail] = await bash.locator('[aria-label="Error"] .tool-card-pre').allTextContents();
      expect(head).toContain('red alert');
      expect(head).not.toContain('\n150\n');
      expect(tail).toContain('it broke');
      await screenshot(page, 'tool-cards-bash-failed');
      await showAll.click();
      expect(await bash.locator('.tool-card-pre--full').textContent()).toContain('\n150\n');
      await bash.locator('.tool-card-header').click();

      // The Edit as a diff.
      const edit = await open(page, 'Edit');
      await expect
        .poll(() => edit.locator('.diff-line--removed').allTextContents(), { timeout: UI_WAIT })
        .toEqual(['-  return "hello";\n']);
      expect(await edit.locator('.diff-line--added').allTextContents()).toEqual([
        '+  return "hello, world";\n',
        '+  // greeted\n',
      ]);
      // Side by side: the removed line faces the added one; the choice holds for the other diffs too.
      await edit.getByRole('button', { name: 'Side by side' }).click();
      const row = edit.locator('.side-diff-table tr').filter({ hasText: 'return "hello";' });
      expect(await row.locator('.diff-line--removed').textContent()).toContain('return "hello";');
      expect(await row.locator('.diff-line--added').textContent()).toContain('return "hello, world";');
      await screenshot(page, 'tool-cards-edit');
      await edit.locator('.tool-card-header').click();

      // A Write that replaced a file shows what changed; one that created a file shows it highlighted.
      const replaced = await open(page, 'Write', 0);
      await expect
        .poll(() => replaced.locator('.diff-line--removed').allTextContents(), { timeout: UI_WAIT })
        .toEqual([expect.stringContaining('old text')]);
      expect(await replaced.locator('.diff-line--added').allTextContents()).toEqual([
        expect.stringContaining('new text'),
      ]);
      await replaced.getByRole('button', { name: 'Unified' }).click();
      await replaced.locator('.tool-card-header').click();
      const created = await open(page, 'Write', 1);
      await expect
        .poll(() => created.locator('code.language-python .hljs-keyword').first().textContent(), {
          timeout: UI_WAIT,
        })
        .toBe('def');
      await created.locator('.tool-card-header').click();

      // Read: the range and its lines, numbered from where it started.
      const read = await open(page, 'Read');
      await expect.poll(() => read.locator('.read-gutter').textContent(), { timeout: UI_WAIT }).toBe('2\n3');
      expect(await read.locator('.read-range').textContent()).toContain('Lines 2–3');
      expect(await read.locator('.read-view code').textContent()).toContain('return "hello, world";');
      await screenshot(page, 'tool-cards-read');
      await read.locator('.tool-card-header').click();

      // Grep and Glob: the matches as lists of paths, each with its copy button.
      const grep = await open(page, 'Grep');
      await expect
        .poll(() => grep.locator('.file-list-path-text').allTextContents(), { timeout: UI_WAIT })
        .toEqual(['src/app.ts', 'src/util.ts']);
      expect(await grep.locator('.file-list-match').count()).toBe(2);
      const glob = await open(page, 'Glob');
      await expect
        .poll(() => glob.locator('.file-list-path-text').allTextContents(), { timeout: UI_WAIT })
        .toEqual(['src/app.ts', 'src/util.ts']);
      expect(await glob.getByRole('button', { name: 'Copy path src/util.ts' }).count()).toBe(1);
      await screenshot(page, 'tool-cards-lists');

      // Dark and Chinese: the same cards after a reload.
      const dark = await suite.openPage({ colorScheme: 'dark' });
      await openSession(dark);
      await open(dark, 'Bash');
      await open(dark, 'Edit');
      await screenshot(dark, 'tool-cards-dark');
      const zh = await suite.openPage({ locale: 'zh-CN' });
      await openSession(zh);
      expect(await card(zh, 'Write').locator('.tool-card-summary').textContent()).toBe('notes.md (3 行)');
      const zhBash = await open(zh, 'Bash');
      expect(await zhBash.locator('.tool-card-facts').textContent()).toMatch(/^退出码 3 · /);
      await screenshot(zh, 'tool-cards-zh');
    },
    TEST_TIMEOUT,
  );
});
