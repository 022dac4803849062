// A turn's file changes in a browser against a real sidecar: a scripted turn Writes a new file and Edits an
// existing one; "2 files changed" shows under it with both diffs; a file the user edits on disk afterwards
// is listed as a conflict when reverting, "Revert anyway" restores the files and adds the revert's card
// (listing a file over 10 MB it could not put back), and "Undo this revert" brings the changes back; both
// cards, and what could not be put back, are still there after a reload. Screenshots in light, dark and
// Chinese.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;
const TITLE = 'file changes';
const KEEP = 'one\ntwo\nthree\n';

const suite = browserSuite({ timeoutMs: TEST_TIMEOUT });

async function openSession(page: Page) {
  await page.getByRole('navigation').getByRole('button', { name: TITLE, exact: true }).click();
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
}

/** Unfolds the first turn's changes and both files' diffs. */
async function unfoldDiffs(page: Page, rowName: RegExp) {
  const turn = page.locator('article.turn').first();
  await turn.getByRole('button', { name: rowName }).click();
  const files = turn.locator('li.file-change');
  await expect.poll(() => files.count(), { timeout: UI_WAIT }).toBe(2);
  for (const toggle of await turn.locator('.file-change-toggle').all()) await toggle.click();
  return turn;
}

describe('file changes under a turn', () => {
  it(
    'shows the diffs, reverts past a conflict with force, and undoes the revert',
    async () => {
      const { ui } = suite;
      const file = (rel: string) => path.join(ui.projectDir, rel);
      fs.writeFileSync(file('keep.txt'), KEEP);
      // Over the size Cairn keeps (10 MB): recorded by size and time only, so a revert cannot put it back.
      fs.writeFileSync(file('big.bin'), Buffer.alloc(11 * 1024 * 1024, 1));
      const { sessionId } = createSession(ui, TITLE);
      ui.server.core.store.sessions.update(sessionId, { approval: 'auto' });
      ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Write', input: { path: 'new.txt', content: 'hello\n' } }] },
        {
          content: [
            {
              type: 'tool_use',
              name: 'Edit',
              input: { path: 'keep.txt', old_string: 'two', new_string: 'TWO' },
            },
          ],
        },
        { content: [{ type: 'text', text: 'Both files are written.' }] },
      );

      const page = await suite.openPage();
      await openSession(page);
      const composer = page.getByLabel('Message');
      await composer.fill('Write new.txt and fix keep.txt');
      await composer.press('Enter');
      await page.getByText('Both files are written.').waitFor({ timeout: UI_WAIT });

      // The row, then both diffs with their lines.
      const turn = await unfoldDiffs(page, /^2 files changed$/);
      const keep = turn.locator('li.file-change[data-path="keep.txt"]');
      expect(await keep.locator('.file-change-status').textContent()).toBe('Modified');
      expect(await keep.locator('.diff-line--removed').allTextContents()).toEqual(['-two\n']);
      expect(await keep.locator('.diff-line--added').allTextContents()).toEqual(['+TWO\n']);
      const added = turn.locator('li.file-change[data-path="new.txt"]');
      expect(await added.locator('.file-change-status').textContent()).toBe('Added');
      expect(await added.locator('.diff-line--added').allTextContents()).toEqual(['+hello\n']);
      await screenshot(page, 'file-changes-diffs');

      // The user edits a file the turn changed, and the large one: reverting lists both, and "Revert anyway"
      // restores the turn's files but cannot put the large one back, and says so.
      fs.writeFileSync(file('keep.txt'), 'edited by me\n');
      fs.writeFileSync(file('big.bin'), Buffer.alloc(12 * 1024 * 1024, 2));
      await turn.getByRole('button', { name: 'Undo these file changes' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Undo file changes' }).click();
      const conflict = page.getByRole('alertdialog', { name: /changed since Cairn recorded them/ });
      await conflict.waitFor({ timeout: UI_WAIT });
      expect(await conflict.getByRole('listitem').allTextContents()).toEqual(['big.bin', 'keep.txt']);
      await screenshot(page, 'file-changes-conflict');
      await conflict.getByRole('button', { name: 'Revert anyway' }).click();
      const card = page.locator('.revert-card').filter({ hasText: 'Files restored to before turn 1' });
      await card.waitFor({ timeout: UI_WAIT });
      expect(fs.existsSync(file('new.txt'))).toBe(false);
      expect(fs.readFileSync(file('keep.txt'), 'utf8')).toBe(KEEP);
      await card.getByRole('button', { name: /2 files changed/ }).waitFor({ timeout: UI_WAIT });
      const missed = card.getByRole('note');
      expect(await missed.textContent()).toContain('big.bin — It is larger than 10 MB');

      // Undo the revert: the turn's file and the user's edit are back, and a second card says so.
      await card.getByRole('button', { name: 'Undo this revert' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Undo this revert' }).click();
      await page
        .locator('.revert-card')
        .filter({ hasText: 'Files restored to before turn 2' })
        .waitFor({ timeout: UI_WAIT });
      expect(fs.readFileSync(file('new.txt'), 'utf8')).toBe('hello\n');
      expect(fs.readFileSync(file('keep.txt'), 'utf8')).toBe('edited by me\n');
      await screenshot(page, 'file-changes-reverted');

      // A reload reads both reverts back as cards, each still offering its undo, and the first still lists
      // the file it could not put back.
      await page.reload();
      await openSession(page);
      for (const ordinal of [1, 2]) {
        const again = page
          .locator('.revert-card')
          .filter({ hasText: `Files restored to before turn ${ordinal}` });
        await again.getByRole('button', { name: 'Undo this revert' }).waitFor({ timeout: UI_WAIT });
      }
      const first = page.locator('.revert-card').filter({ hasText: 'Files restored to before turn 1' });
      expect(await first.getByRole('note').textContent()).toContain('big.bin — It is larger than 10 MB');

      // The session's total: both files, from before the first turn to now.
      await page.getByRole('button', { name: 'Session actions' }).click();
      await page.getByRole('menuitem', { name: 'Changes in this session' }).click();
      const total = page.getByRole('dialog', { name: 'Changes in this session' });
      await expect
        .poll(() => total.locator('.file-change-path').allTextContents(), { timeout: UI_WAIT })
        .toEqual(['keep.txt', 'new.txt']);
      await screenshot(page, 'file-changes-session');

      // Dark, and Chinese: the same diffs after a reload.
      const dark = await suite.openPage({ colorScheme: 'dark' });
      await openSession(dark);
      await unfoldDiffs(dark, /2 files changed/);
      await screenshot(dark, 'file-changes-dark');
      const zh = await suite.openPage({ locale: 'zh-CN' });
      await openSession(zh);
      await unfoldDiffs(zh, /改动了 2 个文件/);
      await screenshot(zh, 'file-changes-zh');
    },
    TEST_TIMEOUT,
  );
});
