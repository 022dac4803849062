// Search, branches, export and import in a browser against a real sidecar: two turns, Ctrl+Shift+F finds
// a word of the first and opens the session there, highlighted; "Branch from here" on turn 1 opens a new
// session with that turn only and says where it came from; Export as JSON downloads the session and Import
// brings it back as another session. One sidecar, one browser; screenshots in English and Chinese.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../../sidecar/test/support/model-server';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;

const TITLE = 'lighthouse notes';
const FIRST = 'Tell me about the zephyrine lighthouse';
const FIRST_REPLY = 'The zephyrine lighthouse stands on the north cape.';
const SECOND = 'And the harbour below it?';
const SECOND_REPLY = 'The harbour is small and sheltered.';

const suite = browserSuite({ timeoutMs: TEST_TIMEOUT });
const reply = (text: string): ScriptedReply => ({ content: [{ type: 'text', text }] });

const turns = (page: Page) => page.locator('article.turn');

/**
 * Sends a prompt and waits for its turn to end, not only for its answer to show: Enter does nothing while
 * a turn runs, and the answer's text can show a moment before the turn's end is applied.
 */
async function send(page: Page, prompt: string, answer: string) {
  const before = await turns(page).count();
  const composer = page.getByLabel('Message');
  await composer.fill(prompt);
  await composer.press('Enter');
  await page.getByText(answer).waitFor({ timeout: UI_WAIT });
  await expect
    .poll(() => turns(page).nth(before).getAttribute('data-status'), { timeout: UI_WAIT })
    .toBe('completed');
}
const sessionCount = () => suite.ui.server.core.store.sessions.list().length;

describe('find, branch, export and import', () => {
  it(
    'finds a turn across sessions, branches from it, and exports and imports the session',
    async () => {
      createSession(suite.ui, TITLE);
      suite.ui.replies.enqueue(reply(FIRST_REPLY), reply(SECOND_REPLY));
      const page = await suite.openPage();
      const nav = page.getByRole('navigation', { name: 'Projects' });
      await nav.getByRole('button', { name: TITLE, exact: true }).click();
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
      await send(page, FIRST, FIRST_REPLY);
      await send(page, SECOND, SECOND_REPLY);
      await expect.poll(() => page.locator('article.turn[data-status="completed"]').count()).toBe(2);

      // From another (new, empty) session: search everywhere, Enter on the hit.
      await page.keyboard.press('Control+N');
      await page.getByRole('heading', { name: 'New session', level: 1 }).waitFor({ timeout: UI_WAIT });
      await page.keyboard.press('Control+Shift+F');
      const dialog = page.getByRole('dialog', { name: 'Search' });
      await dialog.getByRole('combobox', { name: 'Search', exact: true }).fill('zephyrine');
      const hit = dialog.getByRole('listbox').getByRole('option').first();
      await hit.waitFor({ timeout: UI_WAIT });
      expect(await hit.locator('.search-hit-title').textContent()).toBe(TITLE);
      expect((await hit.locator('mark').allTextContents()).map((m) => m.toLowerCase())).toContain(
        'zephyrine',
      );
      await screenshot(page, 'sessions-find-search');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
      const highlighted = page.locator('.turn-highlight article.turn');
      await highlighted.waitFor({ timeout: UI_WAIT });
      expect(await highlighted.getAttribute('data-turn-ordinal')).toBe('1');
      expect(await highlighted.isVisible()).toBe(true);
      await screenshot(page, 'sessions-find-highlighted');

      // Branch from turn 1: a new session with that turn only, saying where it came from.
      const before = sessionCount();
      await turns(page)
        .filter({ hasText: FIRST_REPLY })
        .getByRole('button', { name: 'Branch from here' })
        .click();
      const from = page.getByRole('button', { name: `Branched from ${TITLE} · turn 1` });
      await from.waitFor({ timeout: UI_WAIT });
      expect(sessionCount()).toBe(before + 1);
      await expect.poll(() => turns(page).count(), { timeout: UI_WAIT }).toBe(1);
      expect(await page.getByText(SECOND_REPLY).count()).toBe(0);
      await screenshot(page, 'sessions-find-branch');

      // Export as JSON, then Import it: another session, opened.
      const actions = page.getByRole('button', { name: 'Session actions' });
      await actions.click();
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: UI_WAIT }),
        page.getByRole('menuitem', { name: 'Export as JSON' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.json$/);
      const file = await download.path();
      await actions.click();
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser', { timeout: UI_WAIT }),
        page.getByRole('menuitem', { name: 'Import session…' }).click(),
      ]);
      const known = new Set(suite.ui.server.core.store.sessions.list().map((s) => s.id));
      await chooser.setFiles(file);
      await expect.poll(sessionCount, { timeout: UI_WAIT }).toBe(before + 2);
      // The imported session is the one open now: its own turn (a new id) shows, with the first reply.
      const { store } = suite.ui.server.core;
      const imported = store.sessions.list().find((s) => !known.has(s.id));
      const importedTurn = imported ? store.turns.page(imported.id, 10).turns[0]?.id : undefined;
      expect(importedTurn).toBeDefined();
      await page.locator(`[data-turn-id="${importedTurn}"]`).waitFor({ timeout: UI_WAIT });
      expect(await turns(page).count()).toBe(1);
      await page.getByText(FIRST_REPLY).waitFor({ timeout: UI_WAIT });

      // The same in Chinese: the branch's header and the search dialog.
      const zh = await suite.openPage({ locale: 'zh-CN' });
      await zh.getByRole('navigation').getByRole('button', { name: TITLE, exact: true }).click();
      await zh.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
      await zh.getByRole('button', { name: /个另开的会话/ }).waitFor({ timeout: UI_WAIT });
      await zh.keyboard.press('Control+F');
      await zh
        .getByRole('dialog', { name: '搜索' })
        .getByRole('combobox', { name: '搜索', exact: true })
        .fill('harbour');
      await zh.getByRole('listbox').getByRole('option').first().waitFor({ timeout: UI_WAIT });
      await screenshot(zh, 'sessions-find-zh');
    },
    TEST_TIMEOUT,
  );
});
