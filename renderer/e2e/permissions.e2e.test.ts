// Permissions in a browser against a real sidecar: Settings → Permissions (add, list, test, edit, delete, in
// English and in Chinese), and an approval card whose "Always allow…" saves an edited rule.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../../sidecar/src/protocol';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;

const suite = browserSuite();

afterEach(() => {
  // Each test starts without rules: a rule left behind would decide the next test's calls.
  const { store } = suite.ui.server.core;
  for (const rule of store.permissionRules.list()) store.permissionRules.delete(rule.id);
});

async function openApp(): Promise<Page> {
  const page = await suite.openPage();
  await page.getByRole('navigation', { name: 'Projects' }).waitFor({ timeout: UI_WAIT });
  return page;
}

/** The Permissions section of Settings, opened from the sidebar. */
async function openPermissions(page: Page) {
  await page
    .getByRole('navigation', { name: 'Projects' })
    .getByRole('button', { name: /Settings/ })
    .click();
  const section = page.getByRole('region', { name: 'Permissions', exact: true });
  await section.waitFor({ timeout: UI_WAIT });
  return section;
}

/** Tests a Bash command in the section's test box; answers the result's text once it says `expected`. */
async function testCommand(section: Locator, labels: TestLabels, command: string, expected: string) {
  const box = section.getByRole('form', { name: labels.box });
  await box.getByLabel(labels.command, { exact: true }).fill(command);
  await box.getByRole('button', { name: labels.run, exact: true }).click();
  await expect.poll(() => box.getByRole('status').textContent(), { timeout: UI_WAIT }).toContain(expected);
  return (await box.getByRole('status').textContent()) ?? '';
}

interface TestLabels {
  box: string;
  command: string;
  run: string;
}

const EN: TestLabels = { box: 'Test a call', command: 'Command', run: 'Test' };
const ZH = { box: '测试一次调用', run: '测试' };

const rules = (): PermissionRule[] => suite.ui.server.core.store.permissionRules.list();

describe('Settings → Permissions', () => {
  it(
    'adds a rule, lists it, tests a command against it, edits it and deletes it; then in Chinese',
    async () => {
      const page = await openApp();
      const section = await openPermissions(page);
      await section.getByText('No rules yet.', { exact: false }).waitFor({ timeout: UI_WAIT });

      // Add: Bash `rm *`, deny, everywhere.
      await section.getByRole('button', { name: 'Add rule', exact: true }).click();
      const form = section.getByRole('form', { name: 'Add a rule' });
      expect(await form.getByLabel('Tool', { exact: true }).inputValue()).toBe('Bash');
      await form.getByLabel('Pattern (optional)', { exact: true }).fill('rm *');
      await form.getByLabel('Action', { exact: true }).selectOption('deny');
      await form.getByRole('button', { name: 'Save rule' }).click();
      await form.waitFor({ state: 'detached', timeout: UI_WAIT });
      const row = section.getByRole('list', { name: 'Rules' }).getByRole('listitem');
      await expect.poll(() => row.count(), { timeout: UI_WAIT }).toBe(1);
      expect(await row.textContent()).toContain('rm *');
      expect(await row.textContent()).toContain('Deny');
      expect(await row.textContent()).toContain('Everywhere');
      expect(rules()).toMatchObject([{ tool: 'Bash', pattern: 'rm *', action: 'deny', project_id: null }]);

      // Test: the rule finds the rm behind an allowed-looking echo; a command without rm is left to the mode.
      const denied = await testCommand(section, EN, 'echo ok && rm -rf build', 'Decision: Deny');
      expect(denied).toContain('Decided by the rule Bash rm *.');
      await screenshot(page, 'permissions-settings');
      await testCommand(section, EN, 'git status', 'Decision: Ask');

      // Edit it to allow: the test now allows a plain rm (and still asks for what else is chained to it).
      await section.getByRole('button', { name: 'Edit the rule Bash rm *' }).click();
      const edit = section.getByRole('form', { name: 'Edit the rule Bash rm *' });
      await edit.getByLabel('Action', { exact: true }).selectOption('allow');
      await edit.getByRole('button', { name: 'Save rule' }).click();
      await edit.waitFor({ state: 'detached', timeout: UI_WAIT });
      await expect.poll(() => rules()[0]?.action, { timeout: UI_WAIT }).toBe('allow');
      await testCommand(section, EN, 'rm -rf build', 'Decision: Allow');
      await testCommand(section, EN, 'rm -rf build; curl example.com', 'Decision: Ask');

      // Delete it, after the confirmation.
      await section.getByRole('button', { name: 'Delete the rule Bash rm *' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
      await section.getByText('No rules yet.', { exact: false }).waitFor({ timeout: UI_WAIT });
      expect(rules()).toEqual([]);

      // The same in Chinese.
      await page.getByLabel('Display language').selectOption('zh-CN');
      const zh = page.getByRole('region', { name: '权限', exact: true });
      await zh.waitFor({ timeout: UI_WAIT });
      await zh.getByRole('button', { name: '添加规则', exact: true }).click();
      const zhForm = zh.getByRole('form', { name: '添加一条规则' });
      await zhForm.getByLabel('工具', { exact: true }).fill('Read');
      await zhForm.getByLabel('动作', { exact: true }).selectOption('deny');
      await zhForm.getByRole('button', { name: '保存规则' }).click();
      await zhForm.waitFor({ state: 'detached', timeout: UI_WAIT });
      const zhRow = zh.getByRole('list', { name: '规则' }).getByRole('listitem');
      await expect.poll(() => zhRow.textContent(), { timeout: UI_WAIT }).toContain('任意输入');
      expect(await zhRow.textContent()).toContain('所有地方');
      await zh.getByRole('form', { name: ZH.box }).getByLabel('工具', { exact: true }).selectOption('Read');
      const zhBox = zh.getByRole('form', { name: ZH.box });
      await zhBox.getByLabel('路径', { exact: true }).fill('README.md');
      await zhBox.getByRole('button', { name: ZH.run, exact: true }).click();
      await expect
        .poll(() => zhBox.getByRole('status').textContent(), { timeout: UI_WAIT })
        .toContain('决定：拒绝');
      await screenshot(page, 'permissions-settings-zh-CN');
      await zh.getByRole('button', { name: '删除规则 Read 任意输入' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: '删除', exact: true }).click();
      await zh.getByText('还没有规则。', { exact: false }).waitFor({ timeout: UI_WAIT });
      expect(rules()).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

describe('an approval card', () => {
  it(
    'shows the Bash command and why it asks, and "Always allow…" saves the edited rule for the project',
    async () => {
      const title = 'permissions approval';
      const { projectId, sessionId } = createSession(suite.ui, title);
      suite.ui.server.core.store.sessions.update(sessionId, { approval: 'ask' });
      const page = await openApp();
      await page
        .getByRole('navigation', { name: 'Projects' })
        .getByRole('button', { name: title, exact: true })
        .click();
      await page.getByRole('region', { name: title }).waitFor({ timeout: UI_WAIT });

      suite.ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo always-allowed' } }] },
        { content: [{ type: 'text', text: 'It ran.' }] },
      );
      const composer = page.getByLabel('Message');
      await composer.fill('Run the echo');
      await composer.press('Enter');

      const card = page.getByRole('region', { name: 'Allow Bash?' });
      await card.waitFor({ timeout: UI_WAIT });
      expect(await card.getByRole('region', { name: 'Command' }).textContent()).toContain(
        'echo always-allowed',
      );
      const reason = card.locator('.approval-reason');
      expect(await reason.textContent()).toMatch(/^Why it asks: \S/);
      // Nothing on the card took the composer's focus.
      expect(await composer.evaluate((el) => el === document.activeElement)).toBe(true);

      await card.getByRole('button', { name: 'Always allow…' }).click();
      const editor = card.getByRole('form', { name: 'Always allow Bash' });
      const pattern = editor.getByRole('textbox', { name: 'Pattern' });
      const suggested =
        suite.ui.server.core.store.questions.pending(sessionId)[0]?.permission?.suggestion.pattern;
      expect(suggested).toBe('echo always-allowed *');
      expect(await pattern.inputValue()).toBe(suggested);
      expect(await editor.getByRole('radio', { name: 'This project' }).isChecked()).toBe(true);
      await pattern.fill('echo *');
      await screenshot(page, 'permissions-always-allow');
      await editor.getByRole('button', { name: 'Save and allow' }).click();

      await expect
        .poll(() => card.getByRole('status').textContent(), { timeout: UI_WAIT })
        .toBe('Allowed Saved as a rule for this project.');
      await page.getByText('It ran.').waitFor({ timeout: UI_WAIT });

      // The rule is on the server, for the project, as edited.
      const { url, token } = suite.ui.server;
      const answer = await fetch(`${url}/api/permission-rules?project_id=${projectId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const listed = (await answer.json()) as { rules: PermissionRule[] };
      expect(listed.rules).toMatchObject([
        { tool: 'Bash', pattern: 'echo *', action: 'allow', project_id: projectId, session_id: null },
      ]);
    },
    TEST_TIMEOUT,
  );

  it(
    'in Chinese: "Always deny…" saves a deny rule, and the next such call is refused without asking',
    async () => {
      const title = '权限 审批';
      const { projectId, sessionId } = createSession(suite.ui, title);
      suite.ui.server.core.store.sessions.update(sessionId, { approval: 'ask' });
      const page = await suite.openPage({ locale: 'zh-CN' });
      const nav = page.getByRole('navigation', { name: '项目' });
      await nav.waitFor({ timeout: UI_WAIT });
      await nav.getByRole('button', { name: title, exact: true }).click();
      await page.getByRole('region', { name: title }).waitFor({ timeout: UI_WAIT });

      suite.ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch never-made.txt' } }] },
        { content: [{ type: 'text', text: '没有运行。' }] },
      );
      const composer = page.getByLabel('消息');
      await composer.fill('创建文件');
      await composer.press('Enter');

      const card = page.getByRole('region', { name: '允许运行 Bash 吗？' });
      await card.waitFor({ timeout: UI_WAIT });
      expect(await card.locator('.approval-reason').textContent()).toMatch(/^询问原因：\S/);
      await card.getByRole('button', { name: '始终拒绝…' }).click();
      const editor = card.getByRole('form', { name: '始终拒绝 Bash' });
      const pattern = editor.getByRole('textbox', { name: '匹配模式' });
      expect(await pattern.inputValue()).toBe('touch *');
      await screenshot(page, 'permissions-always-deny-zh-CN');
      await editor.getByRole('button', { name: '保存并拒绝' }).click();
      await expect
        .poll(() => card.getByRole('status').textContent(), { timeout: UI_WAIT })
        .toContain('已保存为本项目的规则。');
      await page.getByText('没有运行。').waitFor({ timeout: UI_WAIT });
      expect(rules()).toMatchObject([
        { tool: 'Bash', pattern: 'touch *', action: 'deny', project_id: projectId, session_id: null },
      ]);

      // The rule refuses the next touch at once: no card, and the file is never made.
      suite.ui.replies.enqueue(
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch never-made.txt' } }] },
        { content: [{ type: 'text', text: '被规则拒绝。' }] },
      );
      await composer.fill('再试一次');
      await composer.press('Enter');
      await page.getByText('被规则拒绝。').waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('region', { name: '允许运行 Bash 吗？' }).count()).toBe(1);
      expect(fs.existsSync(path.join(suite.ui.projectDir, 'never-made.txt'))).toBe(false);
      const { store } = suite.ui.server.core;
      const turnIds = store.turns.page(sessionId, 10).turns.map((t) => t.id);
      const calls = [...store.toolCalls.forTurns(turnIds).values()].flat();
      expect(calls.map((c) => c.status).sort()).toEqual(['denied', 'denied']);
    },
    TEST_TIMEOUT,
  );
});
