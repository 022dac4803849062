// The renderer as the desktop app runs it, in headless Chromium: loaded from its own origin (Electron's
// app://cairn), given a `window.cairn` bridge, talking to real sidecars. Electron itself cannot run here,
// so the bridge is a stand-in driven from this process; everything behind it is real.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BackendInfo } from '../../sidecar/src/protocol';
import type { RunningServer } from '../../sidecar/src/server/start-server';
import { tempDir } from '../../sidecar/test/support/harness';
import { type LoopbackServer, listenOnLoopback } from '../../sidecar/test/support/loopback-server';
import { type ModelServer, startModelServer } from '../../sidecar/test/support/model-server';
import { seedTurns } from '../../sidecar/test/support/seed-turns';
import { launchChromium, newContext, screenshot, serveRendererDist } from './support/cairn-ui';
import { type FakeHost, installDesktopBridge, startDesktopSidecar } from './support/desktop-bridge';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;

let model: ModelServer;
let appOrigin: LoopbackServer;
let browser: Browser;
const dirs: string[] = [];
const sidecars: RunningServer[] = [];
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  model = await startModelServer();
  appOrigin = await serveRendererDist();
  browser = await launchChromium();
}, TEST_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await appOrigin?.close();
  await model?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, TEST_TIMEOUT);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  for (const sidecar of sidecars.splice(0)) await sidecar.stop();
  for (const cleanup of cleanups.splice(0)) await cleanup();
  const errors = pageErrors.splice(0);
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

function folder(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

async function sidecar(dataDir: string, token: string): Promise<RunningServer> {
  const server = await startDesktopSidecar({ dataDir, model, appOrigin, token });
  sidecars.push(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  await server.stop();
  sidecars.splice(sidecars.indexOf(server), 1);
}

function info(server: RunningServer, mode: 'local' | 'remote', url = server.url): BackendInfo {
  return { url, token: server.token, mode, source: mode === 'local' ? 'local' : 'settings' };
}

/** A fresh window of the desktop app whose bridge first reports `backend`. */
async function openDesktop(backend: BackendInfo): Promise<{ page: Page; host: FakeHost }> {
  const context = await newContext(browser);
  contexts.push(context);
  const host = await installDesktopBridge(context, backend);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
  await page.goto(appOrigin.url);
  await sidebar(page).waitFor({ timeout: UI_WAIT });
  return { page, host };
}

function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Projects' });
}

async function send(page: Page, prompt: string): Promise<void> {
  const box = page.getByLabel('Message');
  await box.fill(prompt);
  await box.press('Enter');
}

/** A loopback HTTP server for the test; closed after it. */
async function listen(handler: http.RequestListener): Promise<LoopbackServer> {
  const server = await listenOnLoopback(handler);
  cleanups.push(server.close);
  return server;
}

async function openSettings(page: Page): Promise<void> {
  await sidebar(page)
    .getByRole('button', { name: /Settings/ })
    .click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ timeout: UI_WAIT });
}

describe('the desktop app, with a stand-in bridge and real sidecars', () => {
  it(
    'moves to a restarted sidecar (new port, new token) by itself, without a reload, keeping the session',
    async () => {
      const dataDir = folder('desktop-restart');
      const projectDir = folder('desktop-project');
      const a = await sidecar(dataDir, 'desktop-token-A-0123456789abcdef');
      const project = a.core.store.projects.upsertByPath(projectDir);
      const session = a.core.store.sessions.create({ projectId: project.id, title: 'Survives restarts' });
      seedTurns(a.core.store, session.id, 1);

      const { page, host } = await openDesktop(info(a, 'local'));
      await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
      await sidebar(page).getByRole('button', { name: 'Survives restarts', exact: true }).click();
      const conversation = page.getByRole('region', { name: 'Survives restarts' });
      await conversation.getByText('answer 1').waitFor({ timeout: UI_WAIT });
      const dot = page.locator('.connection-dot');
      await expect.poll(() => dot.getAttribute('aria-label'), { timeout: UI_WAIT }).toBe('Connected');

      model.enqueue({ content: [{ type: 'text', text: 'Answered by the first sidecar.' }] });
      await send(page, 'hello A');
      await conversation.getByText('Answered by the first sidecar.').waitFor({ timeout: UI_WAIT });

      // The sidecar dies; the host is busy starting another and makes getBackend wait meanwhile.
      host.hold();
      await stop(a);
      const banner = page.getByText('Connection lost. Reconnecting…');
      await banner.waitFor({ timeout: UI_WAIT });
      await screenshot(page, 'desktop-reconnecting');

      const b = await sidecar(dataDir, 'desktop-token-B-fedcba9876543210');
      expect(b.url).not.toBe(a.url);
      host.serve(info(b, 'local'));

      await banner.waitFor({ state: 'detached', timeout: UI_WAIT });
      await expect.poll(() => dot.getAttribute('aria-label'), { timeout: UI_WAIT }).toBe('Connected');
      expect(
        await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
      ).toBe(true);
      // Still the same session, with its history, now read from the new sidecar.
      await conversation.getByText('Answered by the first sidecar.').waitFor({ timeout: UI_WAIT });
      expect(await conversation.getByText('answer 1').isVisible()).toBe(true);

      // And it works against the new one: the turn runs there and streams back.
      model.enqueue({ content: [{ type: 'text', text: 'Answered by the restarted sidecar.' }] });
      await send(page, 'hello B');
      await conversation.getByText('Answered by the restarted sidecar.').waitFor({ timeout: UI_WAIT });
      const onB = b.core.store.sessions.list().find((s) => s.id === session.id);
      expect(onB).toBeDefined();
      expect(b.core.store.turns.page(session.id, 10).turns.map((t) => t.prompt)).toContain('hello B');
      await screenshot(page, 'desktop-reconnected');

      // After repeated crashes the host gives up: the app shows its message instead of spinning.
      host.fail('The Cairn server stopped 3 times in a row. Diagnostics: /tmp/cairn-diagnostics.txt');
      await stop(b);
      const problem = page.getByRole('alert').filter({ hasText: 'Cairn has no backend' });
      await problem.waitFor({ timeout: UI_WAIT });
      expect(await problem.textContent()).toContain(
        'The Cairn server stopped 3 times in a row. Diagnostics: /tmp/cairn-diagnostics.txt',
      );
      await screenshot(page, 'desktop-backend-problem');
      expect(host.calls.getBackend).toBeGreaterThanOrEqual(3);
    },
    TEST_TIMEOUT,
  );

  it(
    'on this computer: the native folder picker, the Backend section, and no Test backend',
    async () => {
      const dataDir = folder('desktop-local');
      const projectDir = folder('desktop-local-project');
      const server = await sidecar(dataDir, 'desktop-token-local-0123456789');
      const { page, host } = await openDesktop(info(server, 'local'));
      expect(await page.locator('.remote-marker').count()).toBe(0);

      host.pickFolderAnswer = projectDir;
      await sidebar(page).getByRole('button', { name: 'Open folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'Open a project folder' });
      expect(await dialog.getByRole('textbox').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Open folder' }).click();
      await sidebar(page).getByText(path.basename(projectDir)).waitFor({ timeout: UI_WAIT });
      expect(host.calls.pickFolder).toBe(1);

      await openSettings(page);
      const backend = page.getByRole('region', { name: 'Backend' });
      await backend.getByText('This computer', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Test backend' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Test backend' }).count()).toBe(0);

      // The host refuses a plain-http remote address: its reason shows in the form, the token does not.
      host.remoteError = 'Use https:// for a server that is not on this computer.';
      await backend.getByLabel('Server address').fill('http://cairn.example.com');
      await backend.getByLabel('Access token').fill('remote-token-e2e-0123456789');
      await backend.getByRole('button', { name: 'Connect to server' }).click();
      await backend
        .getByText('The backend was not changed: Use https:// for a server that is not on this computer.')
        .waitFor({ timeout: UI_WAIT });
      expect(host.calls.setRemoteBackend).toEqual([
        { url: 'http://cairn.example.com', token: 'remote-token-e2e-0123456789' },
      ]);
      expect(await backend.getByLabel('Access token').inputValue()).toBe('');
      expect(await page.content()).not.toContain('remote-token-e2e-0123456789');
      await screenshot(page, 'desktop-settings-backend-local');
    },
    TEST_TIMEOUT,
  );

  it(
    'on a remote server: "on <host>", a folder path on the server, and Test backend with every step OK',
    async () => {
      const dataDir = folder('desktop-remote');
      const projectDir = folder('desktop-remote-project');
      const server = await sidecar(dataDir, 'desktop-token-remote-0123456789');
      // A loopback server is still a remote backend when the user chose it in the settings.
      const remote = info(server, 'remote', `http://localhost:${server.port}`);
      const { page, host } = await openDesktop(remote);

      const marker = sidebar(page).getByText('on localhost');
      await marker.waitFor({ timeout: UI_WAIT });

      await sidebar(page).getByRole('button', { name: 'Open folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'Open a project folder' });
      await dialog
        .getByText(
          'Projects are folders on localhost, the machine that runs the Cairn server, not on this computer.',
        )
        .waitFor();
      expect(await dialog.getByRole('button', { name: 'Open folder' }).count()).toBe(0);
      await dialog.getByLabel('Folder path on localhost').fill(projectDir);
      await dialog.getByRole('button', { name: 'Open', exact: true }).click();
      await sidebar(page).getByText(path.basename(projectDir)).waitFor({ timeout: UI_WAIT });
      expect(host.calls.pickFolder).toBe(0);
      await screenshot(page, 'desktop-remote-sidebar');

      await openSettings(page);
      const backend = page.getByRole('region', { name: 'Backend' });
      expect(await backend.getByTestId('backend-url').textContent()).toBe(remote.url);
      await page.getByRole('button', { name: 'Test backend' }).click();
      await page.getByRole('heading', { name: 'Test backend', level: 1 }).waitFor();
      await page.getByText('Every check passed.').waitFor({ timeout: UI_WAIT });
      const steps = page.locator('li.check-step');
      expect(await steps.evaluateAll((items) => items.map((li) => li.getAttribute('data-status')))).toEqual([
        'ok',
        'ok',
        'ok',
        'ok',
      ]);
      const version = (await (await fetch(`${server.url}/api/health`)).json()) as { version: string };
      expect(await steps.first().textContent()).toContain(`Cairn ${version.version}`);
      expect(await steps.first().textContent()).toMatch(/\d+ ms/);
      await screenshot(page, 'desktop-remote-test-backend');
    },
    TEST_TIMEOUT,
  );

  it(
    'a remote address that redirects: Test backend says so, and the other host never hears from Chromium',
    async () => {
      const elsewhere = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end('{"ok":true,"name":"cairn","version":"6.6.6"}');
      });
      // As a proxy in front of a server would answer, CORS headers included, so the page may see it.
      const redirecting = await listen((req, res) => {
        res.writeHead(302, {
          location: `${elsewhere.url}${req.url}`,
          'access-control-allow-origin': appOrigin.url,
          'access-control-allow-headers': 'authorization, content-type',
        });
        res.end();
      });
      const { page } = await openDesktop({
        url: redirecting.url,
        token: 'redirect-e2e-token-0123456789',
        mode: 'remote',
        source: 'settings',
      });
      await openSettings(page);
      await page.getByRole('button', { name: 'Test backend' }).click();
      await page.getByText('Some checks failed; see above.').waitFor({ timeout: UI_WAIT });
      const health = page.locator('li.check-step').first();
      await expect.poll(() => health.getAttribute('data-status'), { timeout: UI_WAIT }).toBe('failed');
      expect(await health.locator('.check-failure').getAttribute('data-failure')).toBe('redirect');
      expect(elsewhere.requests).toEqual([]);
      await screenshot(page, 'desktop-remote-redirect');
    },
    TEST_TIMEOUT,
  );
});
