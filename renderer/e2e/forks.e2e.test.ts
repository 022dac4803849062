// Forks in a browser against a real sidecar: the model spawns a fork, whose Bash call asks for approval in the
// parent's conversation (labelled with the fork's task); the fork's row under the turn follows it to its
// response; "Open" shows the fork's conversation read-only, with a banner back to the parent. One page load.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SessionDetail, SessionList } from '../../sidecar/src/protocol';
import type { RecordedRequest, ScriptedReply } from '../../sidecar/test/support/model-server';
import { browserSuite } from './support/browser-suite';
import { createSession, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;

const TITLE = 'forks parent';
const TASK = 'Count the TODOs';
const FORK_RESPONSE = 'The fork found **3** TODOs in the project.';
const FINAL = 'Gathered: the fork counted 3 TODOs.';

const suite = browserSuite({ timeoutMs: TEST_TIMEOUT });

type Block = { type?: string; name?: string };
const blocks = (req: RecordedRequest): Block[] =>
  req.body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));

/**
 * The scripted model for both sessions, deciding by the request rather than by arrival order (the fork and
 * its parent ask at the same time): a fork never has the Fork tool. The parent spawns, then gathers, then
 * answers; the fork runs one Bash command, then answers.
 */
const router: ScriptedReply = {
  kind: 'handler',
  handle: (req) => {
    const fork = !(req.body.tools ?? []).some((t) => t.name === 'Fork');
    if (fork) {
      const last = req.body.messages.at(-1);
      const ran =
        Array.isArray(last?.content) && (last.content as Block[]).some((b) => b.type === 'tool_result');
      return ran
        ? { content: [{ type: 'text', text: FORK_RESPONSE }] }
        : { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo counted-in-the-fork' } }] };
    }
    const forkCalls = blocks(req).filter((b) => b.type === 'tool_use' && b.name === 'Fork').length;
    if (forkCalls === 0)
      return {
        content: [
          {
            type: 'tool_use',
            name: 'Fork',
            input: {
              method: 'spawn',
              arguments: { task: TASK, instruction: 'Count the TODO comments in the project and report.' },
            },
          },
        ],
      };
    if (forkCalls === 1)
      return {
        content: [{ type: 'tool_use', name: 'Fork', input: { method: 'gather_all', arguments: {} } }],
      };
    return { content: [{ type: 'text', text: FINAL }] };
  },
};

async function api<T>(path: string): Promise<T> {
  const { url, token } = suite.ui.server;
  const answer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await answer.json()) as T;
}

async function openParent(): Promise<Page> {
  const page = await suite.openPage();
  const nav = page.getByRole('navigation', { name: 'Projects' });
  await nav.waitFor({ timeout: UI_WAIT });
  await nav.getByRole('button', { name: TITLE, exact: true }).click();
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
  return page;
}

describe('forks', () => {
  it(
    'nests the fork under its turn with its approval and response, and opens it read-only',
    async () => {
      const { sessionId } = createSession(suite.ui, TITLE);
      const { store } = suite.ui.server.core;
      // The fork runs in its parent's mode: `ask`, so its Bash call asks in the parent. Fork itself is
      // allowed by a rule, whatever the mode would say of it.
      store.sessions.update(sessionId, { approval: 'ask' });
      store.permissionRules.create({
        tool: 'Fork',
        pattern: null,
        action: 'allow',
        projectId: null,
        sessionId,
      });
      // Parent: spawn, gather, answer; fork: Bash, answer.
      suite.ui.replies.enqueue(router, router, router, router, router);

      const page = await openParent();
      const composer = page.getByLabel('Message');
      await composer.fill('Split the counting off to a fork');
      await composer.press('Enter');

      // The fork's row under the turn, and its approval in the parent, named by its task.
      const forks = page.getByTestId('fork-group');
      await forks.waitFor({ timeout: UI_WAIT });
      const row = forks.locator('.fork-row');
      await expect.poll(() => row.textContent(), { timeout: UI_WAIT }).toContain(TASK);
      const approval = page.getByRole('region', { name: 'Allow Bash?' });
      await approval.waitFor({ timeout: UI_WAIT });
      expect(await approval.locator('.question-card-fork').textContent()).toBe(`From fork: ${TASK}`);
      expect(await row.locator('.fork-status').textContent()).toBe('Running');
      await screenshot(page, 'forks-approval-from-fork');
      await approval.getByRole('button', { name: 'Allow once' }).click();

      // It ends with its response (Markdown), and the parent gathers it.
      await page.getByText(FINAL).waitFor({ timeout: UI_WAIT });
      await expect.poll(() => row.locator('.fork-status').textContent(), { timeout: UI_WAIT }).toBe('Done');
      expect(await row.locator('.fork-response strong').textContent()).toBe('3');
      await screenshot(page, 'forks-completed');

      // The server agrees: the detail holds the fork, the list leaves it out.
      const detail = await api<SessionDetail>(`/api/sessions/${sessionId}`);
      expect(detail.forks).toMatchObject([{ task: TASK, status: 'completed', response: FORK_RESPONSE }]);
      const listed = await api<SessionList>('/api/sessions');
      expect(listed.sessions.map((s) => s.id)).not.toContain(detail.forks[0]!.fork_id);

      // Open: the fork's own conversation, read-only, with the way back to its parent.
      await row.getByRole('button', { name: `Open the fork “${TASK}”` }).click();
      const banner = page.getByRole('note');
      await banner.waitFor({ timeout: UI_WAIT });
      expect(await banner.textContent()).toContain(`Fork of ${TITLE} · read-only`);
      await page.getByText('The fork found', { exact: false }).first().waitFor({ timeout: UI_WAIT });
      expect(await page.locator('.tool-card[data-tool="Bash"]').count()).toBe(1);
      expect(await page.getByLabel('Message').count()).toBe(0);
      expect(await page.getByRole('combobox', { name: 'Approval' }).count()).toBe(0);
      const nav = page.getByRole('navigation', { name: 'Projects' });
      expect(await nav.getByRole('button', { name: TITLE, exact: true }).getAttribute('aria-current')).toBe(
        'page',
      );
      await screenshot(page, 'forks-fork-read-only');

      await banner.getByRole('button', { name: 'Back to the parent session' }).click();
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: UI_WAIT });
      await page.getByLabel('Message').waitFor({ timeout: UI_WAIT });
      expect(await page.getByRole('note').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );
});
