// MCP in headless Debian Chromium against a real sidecar: a real stdio server (server-everything from
// node_modules) added in Settings with an env secret kept in a real Secret Service (gnome-keyring on a private
// D-Bus), tested, enabled; a session that connects to it through the agent loop (the scripted model server)
// and shows its servers and tools; a reset that loads the changed configuration before the next message; a
// command line the server cannot read. Its own file, so the keyring is in the environment before keytar
// first connects.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startOAuthFixture } from '../../sidecar/test/mcp/support/oauth-fixture';
import { useKeyringInProcess } from '../../sidecar/test/support/keyring-in-process';
import { browserSuite } from './support/browser-suite';
import { createSession, REPO_ROOT, screenshot } from './support/cairn-ui';

const TEST_TIMEOUT = 180_000;
/** How long the UI may take to show what the server did (a guard against hangs only). */
const UI_WAIT = 30_000;
const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const COMMAND = `node ${EVERYTHING} stdio`;
const SECRET = 'e2e-mcp-secret-3c1f9a7b2d';
const IMPORT_SECRET = 'e2e-import-secret-8d2e4f6a1b';

describe('MCP servers: settings and a session', () => {
  useKeyringInProcess();
  const suite = browserSuite({ timeoutMs: TEST_TIMEOUT });
  const openApp = () => suite.openPage();

  async function openMcpSettings(page: Page): Promise<Locator> {
    await page.getByRole('button', { name: '⚙ Settings', exact: true }).click();
    const section = page.getByRole('region', { name: 'MCP servers' });
    await section.waitFor({ timeout: UI_WAIT });
    return section;
  }

  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${suite.ui.server.url}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${suite.ui.server.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok, `${method} ${route}: HTTP ${response.status}`).toBe(true);
    return response.json() as Promise<Record<string, unknown>>;
  };

  it('adds a stdio server with a secret, tests and enables it; a session connects and resets', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    createSession(suite.ui, 'mcp session');
    const page = await openApp();
    const section = await openMcpSettings(page);
    await expect.poll(() => section.getByText('No MCP servers yet').count(), { timeout: UI_WAIT }).toBe(1);

    await section.getByRole('button', { name: 'Add server' }).click();
    const form = section.getByRole('form', { name: 'New MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('everything');
    await form.getByLabel('Command line').fill(COMMAND);
    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByLabel('Variable 1 name').fill('E2E_SECRET');
    await form.getByLabel('Variable 1 kind').selectOption('secret');
    const secretField = form.getByLabel('Variable 1 value');
    expect(await secretField.getAttribute('type')).toBe('password');
    await secretField.fill(SECRET);
    await form.getByRole('button', { name: 'Save' }).click();

    const row = section.getByRole('listitem', { name: 'everything' });
    await row.waitFor({ timeout: UI_WAIT });
    expect(await row.getByTestId('mcp-server-status').textContent()).toBe('disabled');
    expect(await row.textContent()).toContain(EVERYTHING);

    // The secret reached the keychain (the API says a value is saved) and is nowhere in the page.
    const listed = (await api('GET', '/api/mcp/servers')) as { servers: { id: string; env: unknown }[] };
    const saved = listed.servers[0]!;
    expect(saved.env).toEqual({ E2E_SECRET: { secret: true, has_value: true } });
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = section.getByRole('form', { name: 'Edit everything' });
    await edit.waitFor({ timeout: UI_WAIT });
    expect(await edit.getByLabel('Variable 1 value').inputValue()).toBe('');
    expect(await edit.locator('.mcp-secret .settings-badge').textContent()).toBe('saved');
    expect(await page.content()).not.toContain(SECRET);
    await screenshot(page, 'mcp-settings-edit');
    // Saving with the field empty keeps the saved secret.
    await edit.getByRole('button', { name: 'Save' }).click();
    await row.waitFor({ timeout: UI_WAIT });
    expect(((await api('GET', `/api/mcp/servers/${saved.id}`)) as { env: unknown }).env).toEqual({
      E2E_SECRET: { secret: true, has_value: true },
    });

    // Test connection: how it was started and its tools, the secret only as a source.
    await row.getByRole('button', { name: 'Test connection' }).click();
    const report = row.getByRole('region', { name: 'Connection test' });
    await report.waitFor({ timeout: UI_WAIT });
    expect(await report.getByTestId('mcp-test-program').textContent()).toMatch(/node/);
    const reportText = (await report.textContent()) ?? '';
    expect(reportText).toContain(EVERYTHING);
    expect(reportText).toContain('E2E_SECRET');
    expect(reportText).toMatch(/E2E_SECRET\s*secret/);
    expect(reportText).not.toContain(SECRET);
    expect(await report.locator('.mcp-tool', { hasText: /^echo/ }).count()).toBe(1);
    await screenshot(page, 'mcp-settings-test');

    // The box follows the server: it shows checked once the server says the server is enabled.
    await row.getByRole('checkbox', { name: 'Enabled' }).click();
    await expect
      .poll(() => row.getByTestId('mcp-server-status').textContent(), { timeout: UI_WAIT })
      .toBe('enabled');
    expect(((await api('GET', `/api/mcp/servers/${saved.id}`)) as { enabled: boolean }).enabled).toBe(true);

    // A session: its first message connects the server; the side panel shows it with its tools.
    await page.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('button', { name: 'mcp session' }).click();
    await page.getByRole('button', { name: 'Toggle side panel' }).click();
    const block = page.locator('details.mcp-panel');
    await block.waitFor({ timeout: UI_WAIT });
    await block.locator('summary').click();
    await expect
      .poll(() => block.getByText('The enabled servers are taken at this session’s first message.').count(), {
        timeout: UI_WAIT,
      })
      .toBe(1);

    suite.ui.replies.enqueue({ content: [{ type: 'text', text: 'Plain answer one.' }] });
    const before = suite.ui.model.requests.length;
    const box = page.getByLabel('Message');
    await box.fill('Hello');
    await box.press('Enter');
    await expect
      .poll(() => page.locator('article.turn').last().getAttribute('data-status'), { timeout: UI_WAIT })
      .toBe('completed');
    // The model was offered the server's tools under their agent names.
    const offered = suite.ui.model.requests[before]?.body.tools?.map((t) => t.name) ?? [];
    expect(offered).toContain('mcp__everything__echo');

    const server = block.getByRole('listitem', { name: 'everything' });
    await expect
      .poll(() => server.getByTestId('mcp-state').textContent(), { timeout: UI_WAIT })
      .toBe('connected');
    const echo = server.locator('.mcp-session-tool', { hasText: 'mcp__everything__echo' });
    expect(await echo.count()).toBe(1);
    expect(await echo.textContent()).toMatch(/mcp__everything__echo\s*↔\s*echo/);
    await screenshot(page, 'mcp-session-panel');

    // An MCP call that returns an image: its card offers the call's mcp_result.json, fetched with the token.
    suite.ui.replies.enqueue(
      { content: [{ type: 'tool_use', name: 'mcp__everything__get-tiny-image', input: {} }] },
      { content: [{ type: 'text', text: 'Here is the image.' }] },
    );
    await box.fill('Show me a tiny image');
    await box.press('Enter');
    await expect.poll(() => page.locator('article.turn').count(), { timeout: UI_WAIT }).toBe(2);
    await expect
      .poll(() => page.locator('article.turn').last().getAttribute('data-status'), { timeout: UI_WAIT })
      .toBe('completed');
    const card = page.locator('[data-tool="mcp__everything__get-tiny-image"]');
    // Collapsed: the tool's own name with its server as a badge; open: the image inline, loaded.
    expect(await card.locator('.tool-card-name').textContent()).toBe('get-tiny-image');
    expect(await card.locator('.tool-card-badge--server').textContent()).toBe('everything');
    await card.locator('.tool-card-header').click();
    const image = card.getByRole('img', { name: 'Image 1 from the tool' });
    await image.waitFor({ timeout: UI_WAIT });
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: UI_WAIT })
      .toBeGreaterThan(0);
    expect(await card.getByRole('region', { name: 'Arguments' }).textContent()).toContain(
      'MCP server everything, tool get-tiny-image',
    );
    await screenshot(page, 'tool-card-mcp');
    const downloadButton = card.getByRole('button', { name: 'Download result files' });
    await downloadButton.waitFor({ timeout: UI_WAIT });
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    expect(download.suggestedFilename()).toBe('mcp_result.json');
    expect(download.url().startsWith('blob:')).toBe(true);
    const file = await download.path();
    const resultFile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      tool: string;
      content: { type: string; mimeType?: string }[];
    };
    expect(resultFile.tool).toBe('get-tiny-image');
    expect(resultFile.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);

    // Change the configuration (deny echo), reset: pending until the next message, which loads it.
    await api('PATCH', `/api/mcp/servers/${saved.id}`, { deny_tools: ['echo'] });
    await block.getByRole('button', { name: 'Reset MCP servers' }).click();
    await block.getByTestId('mcp-reset-pending').waitFor({ timeout: UI_WAIT });
    suite.ui.replies.enqueue({ content: [{ type: 'text', text: 'Plain answer two.' }] });
    await box.fill('Again');
    await box.press('Enter');
    await expect.poll(() => page.locator('article.turn').count(), { timeout: UI_WAIT }).toBe(3);
    await expect
      .poll(() => page.locator('article.turn').last().getAttribute('data-status'), { timeout: UI_WAIT })
      .toBe('completed');
    await expect.poll(() => block.getByTestId('mcp-reset-pending').count(), { timeout: UI_WAIT }).toBe(0);
    await expect
      .poll(() => server.getByTestId('mcp-state').textContent(), { timeout: UI_WAIT })
      .toBe('connected');
    expect(await server.locator('.mcp-session-tool', { hasText: 'mcp__everything__echo' }).count()).toBe(0);
    expect(await server.locator('.mcp-session-tool').count()).toBeGreaterThan(0);
    expect(await page.content()).not.toContain(SECRET);
  });

  it("shows the server's error inline for a command line it cannot read", {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const page = await openApp();
    const section = await openMcpSettings(page);
    await section.getByRole('button', { name: 'Add server' }).click();
    const form = section.getByRole('form', { name: 'New MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('broken');
    await form.getByLabel('Command line').fill('node "unclosed');
    await form.getByRole('button', { name: 'Save' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor({ timeout: UI_WAIT });
    expect(await alert.textContent()).toMatch(/^Not saved: The command line cannot be read/);
    // Nothing was created.
    const listed = (await api('GET', '/api/mcp/servers')) as { servers: { name: string }[] };
    expect(listed.servers.map((s) => s.name)).not.toContain('broken');
    await screenshot(page, 'mcp-settings-bad-command');
  });

  it('imports only the chosen server of a VS Code file, answering its placeholders', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const fixture = path.join(REPO_ROOT, 'sidecar/test/mcp/fixtures/vscode-mcp.jsonc');
    const existing = (await api('GET', '/api/mcp/servers')) as { servers: { id: string }[] };
    const before = new Set(existing.servers.map((s) => s.id));
    const page = await openApp();
    const section = await openMcpSettings(page);
    await section.getByRole('button', { name: 'Import…' }).click();
    const panel = section.getByRole('region', { name: 'Import MCP servers' });
    await panel.getByLabel('From').selectOption('vscode');
    await panel.getByLabel('File (optional)').fill(fixture);
    await panel.getByRole('button', { name: 'Read configuration' }).click();

    // Every server of the file, with its full command and its environment names.
    const candidates = panel.locator('.mcp-candidate');
    await expect.poll(() => candidates.count(), { timeout: UI_WAIT }).toBe(4);
    const perplexity = candidates.filter({ hasText: 'perplexity' });
    expect(await perplexity.textContent()).toContain('server-perplexity-ask');
    expect(await perplexity.textContent()).toContain('PERPLEXITY_API_KEY');
    await screenshot(page, 'mcp-import-preview');

    // Choose perplexity only.
    for (const name of ['everything', 'github', 'filesystem']) {
      const box = candidates.filter({ hasText: name }).first().getByRole('checkbox');
      if (await box.isChecked()) await box.uncheck();
    }
    if (!(await perplexity.getByRole('checkbox').isChecked())) await perplexity.getByRole('checkbox').check();
    // Its placeholders: the password input is asked as a secret; the rest as text.
    const answers = panel.getByRole('textbox', { name: /^Answer to / });
    await expect.poll(() => answers.count(), { timeout: UI_WAIT }).toBeGreaterThan(0);
    const key = panel.getByRole('textbox', { name: 'Answer to input:perplexity-key' });
    expect(await key.getAttribute('type')).toBe('password');
    for (const answer of await answers.all()) {
      if ((await answer.inputValue()) !== '') continue;
      await answer.fill(
        (await answer.getAttribute('type')) === 'password' ? IMPORT_SECRET : suite.ui.projectDir,
      );
    }
    await panel.getByRole('button', { name: /^Import chosen/ }).click();
    await expect
      .poll(() => panel.locator('.settings-success').textContent(), { timeout: UI_WAIT })
      .toContain('perplexity');

    const listed = (await api('GET', '/api/mcp/servers')) as {
      servers: { id: string; name: string; enabled: boolean; env: Record<string, unknown> }[];
    };
    const imported = listed.servers.filter((s) => !before.has(s.id));
    expect(imported.map((s) => s.name)).toEqual(['perplexity']);
    expect(imported[0]?.enabled).toBe(false);
    expect(imported[0]?.env.PERPLEXITY_API_KEY).toEqual({ secret: true, has_value: true });
    expect(await page.content()).not.toContain(IMPORT_SECRET);
    await panel.getByRole('button', { name: 'Close' }).click();
    await section.getByRole('listitem', { name: 'perplexity' }).waitFor({ timeout: UI_WAIT });
  });
  it("puts a server's form (elicitation) on the conversation and sends what is filled in", {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const form = path.join(REPO_ROOT, 'sidecar/test/mcp/fixtures/elicit-server.mjs');
    const added = await api('POST', '/api/mcp/servers', {
      name: 'forms',
      transport: 'stdio',
      command: `node ${form}`,
    });
    await api('PATCH', `/api/mcp/servers/${added.id as string}`, { enabled: true });
    createSession(suite.ui, 'form session');
    suite.ui.replies.enqueue(
      { content: [{ type: 'tool_use', name: 'mcp__forms__fill_form', input: { message: 'Who are you?' } }] },
      { content: [{ type: 'text', text: 'Thanks for the form.' }] },
    );
    const page = await openApp();
    await page.getByRole('button', { name: 'form session' }).click();
    const box = page.getByLabel('Message');
    await box.fill('Ask me');
    await box.press('Enter');

    const card = page.locator('.question-card--elicitation');
    await card.getByRole('button', { name: 'Accept' }).waitFor({ timeout: UI_WAIT });
    expect(await card.getByRole('heading').textContent()).toBe('The MCP server forms asks');
    expect(await card.getByLabel('email').getAttribute('type')).toBe('email');
    expect(await card.getByLabel('email').inputValue()).toBe('ann@example.com');
    expect(await card.getByLabel('meeting').getAttribute('type')).toBe('datetime-local');
    // Accepted without the required name: the server's answer shows at the field.
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Name: is required').waitFor({ timeout: UI_WAIT });
    await card.getByLabel(/^Name/).fill('Ann');
    await card.getByLabel('Size').selectOption({ label: 'Small' });
    await card.getByLabel('Olives').check();
    await screenshot(page, 'mcp-elicitation-form');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Sent').waitFor({ timeout: UI_WAIT });
    await expect
      .poll(() => page.locator('article.turn').last().getAttribute('data-status'), { timeout: UI_WAIT })
      .toBe('completed');
    const result = JSON.stringify(suite.ui.model.requests.at(-1)?.body.messages.at(-1));
    expect(result).toContain('\\"name\\":\\"Ann\\"');
    expect(result).toContain('\\"size\\":\\"s\\"');
    expect(result).toContain('\\"toppings\\":[\\"ol\\"]');
  });

  it('logs in to a server behind OAuth from Settings: the login page in a new tab, back to logged in', {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const fixture = await startOAuthFixture();
    try {
      const added = await api('POST', '/api/mcp/servers', {
        name: 'protected',
        transport: 'streamable_http',
        url: fixture.mcpUrl,
        oauth: { scopes: ['mcp'] },
      });
      const page = await openApp();
      const section = await openMcpSettings(page);
      const row = section.getByRole('listitem', { name: 'protected' });
      await row.waitFor({ timeout: UI_WAIT });
      expect(await row.getByText('not logged in').count()).toBe(1);
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, 'mcp-oauth-settings');

      // The login page opens in a tab of its own; the test authorization server "clicks Allow" and sends
      // the browser back to Cairn's callback, which says the user can close it.
      const [popup] = await Promise.all([
        page.waitForEvent('popup', { timeout: UI_WAIT }),
        row.getByRole('button', { name: 'Log in' }).click(),
      ]);
      await popup.waitForURL(/\/api\/mcp\/oauth\/callback\?/, { timeout: UI_WAIT });
      expect(await popup.textContent('body')).toContain('Logged in to "protected". You can close this page.');
      expect(await popup.evaluate(() => window.opener)).toBeNull();
      await popup.close();

      // Back in the app: it reads the server again and shows the login, with Log out.
      await page.bringToFront();
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await row.getByText('logged in', { exact: true }).waitFor({ timeout: UI_WAIT });
      await row.getByRole('button', { name: 'Log out' }).waitFor({ timeout: UI_WAIT });
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, 'mcp-oauth-logged-in');
      const server = await api('GET', `/api/mcp/servers/${added.id as string}`);
      expect(server).toMatchObject({ logged_in: true, authorization_url: null });
      expect(fixture.requests.find((r) => r.endpoint === 'token')).toMatchObject({
        grant_type: 'authorization_code',
        resource: fixture.resource,
        error: null,
      });
    } finally {
      await fixture.close();
    }
  });
});
