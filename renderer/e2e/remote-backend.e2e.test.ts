// Remote use end to end: the real `cairn serve` bound to 0.0.0.0 with a certificate the test makes,
// reached by name (cairn.test) over HTTPS and WSS from headless Chromium, both as its own served web
// page and as the desktop renderer would use it from another origin; a wrong token, plain http and a
// foreign origin are refused.
import fs from 'node:fs';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from '../../sidecar/test/cli/cli-process';
import { json, type RawResponse, rawRequest } from '../../sidecar/test/server/raw-http';
import { makeTestCertificate, type TestCertificate } from '../../sidecar/test/server/test-certificate';
import { tempDir, testEnv } from '../../sidecar/test/support/harness';
import type { LoopbackServer } from '../../sidecar/test/support/loopback-server';
import { type ModelServer, startModelServer } from '../../sidecar/test/support/model-server';
import { newContext, screenshot, serveRendererDist } from './support/cairn-ui';
import { installDesktopBridge } from './support/desktop-bridge';
import { launchChromiumFor } from './support/remote-browser';

const TEST_TIMEOUT = 120_000;
/** How long the UI may take to show something the server already did (a guard against hangs only). */
const UI_WAIT = 20_000;
const TOKEN = `e2e-remote-${'0123456789abcdef'.repeat(2)}`;
const NAMES = ['cairn.test', 'desk.cairn.test', 'evil.cairn.test'];
const SESSION_TITLE = 'Made on the server';

let cert: TestCertificate;
let model: ModelServer;
let dataDir: string;
let projectDir: string;
/** The built renderer over HTTPS, reached as desk.cairn.test (and evil.cairn.test). */
let site: LoopbackServer;
let serve: CliProcess;
let port: number;
/** https://cairn.test:PORT, the backend as a remote user knows it. */
let backend: string;
/** https://desk.cairn.test:PORT2, the origin the renderer runs on in the desktop-app scenario. */
let deskOrigin: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

/**
 * The server's API over TLS with the token, addressed by name as a remote client would; a header given
 * as null is left out.
 */
function api(method: string, route: string, body?: unknown, extra: Record<string, string | null> = {}) {
  const headers: Record<string, string> = {};
  const all = {
    host: `cairn.test:${port}`,
    authorization: `Bearer ${TOKEN}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...extra,
  };
  for (const [name, value] of Object.entries(all)) if (value !== null) headers[name] = value;
  return rawRequest({
    port,
    method,
    path: route,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    tls: { ca: cert.cert },
  });
}

function corsHeaders(res: RawResponse): string[] {
  return Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));
}

beforeAll(async () => {
  cert = makeTestCertificate({ names: NAMES, ips: ['127.0.0.1'] });
  model = await startModelServer();
  dataDir = tempDir('e2e-remote-data');
  projectDir = tempDir('e2e-remote-project');
  site = await serveRendererDist({ tls: cert });
  deskOrigin = `https://desk.cairn.test:${site.port}`;
  serve = startCli(
    [
      'serve',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--tls-cert',
      cert.certFile,
      '--tls-key',
      cert.keyFile,
      '--allowed-hosts',
      'cairn.test',
      '--allowed-origins',
      deskOrigin,
    ],
    { env: testEnv(model, { CAIRN_TOKEN: TOKEN }) },
  );
  const ready = await serve.waitForStdout(/Cairn https:\/\/cairn\.test:(\d+) is ready/);
  port = Number(ready[1]);
  backend = `https://cairn.test:${port}`;
  const project = await api('POST', '/api/projects', { path: projectDir });
  expect(project.status).toBe(201);
  const session = await api('POST', '/api/sessions', {
    project_id: json<{ id: string }>(project).id,
    title: SESSION_TITLE,
  });
  expect(session.status).toBe(201);
  browser = await launchChromiumFor(NAMES, cert);
}, TEST_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  if (serve) {
    serve.child.kill('SIGTERM');
    const stopped = await serve.result();
    expect(stopped.code, stopped.stderr).toBe(0);
  }
  await site?.close();
  await model?.close();
  for (const dir of [dataDir, projectDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  cert?.remove();
}, TEST_TIMEOUT);

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

interface Watched {
  page: Page;
  errors: string[];
  /** WebSocket URLs the page opened, and the frames it received on them. */
  sockets: { url: string; received: string[] }[];
  /** Responses from the backend's API, as the page saw them. */
  apiResponses: Response[];
}

async function openPage(setUp?: (context: BrowserContext) => Promise<void>): Promise<Watched> {
  const context = await newContext(browser);
  contexts.push(context);
  await setUp?.(context);
  const page = await context.newPage();
  const watched: Watched = { page, errors: [], sockets: [], apiResponses: [] };
  page.on('pageerror', (error) => watched.errors.push(`${error.name}: ${error.message}`));
  page.on('websocket', (socket) => {
    const entry = { url: socket.url(), received: [] as string[] };
    watched.sockets.push(entry);
    socket.on('framereceived', (frame) => entry.received.push(String(frame.payload)));
  });
  page.on('response', (response) => {
    if (response.url().startsWith(`${backend}/api/`)) watched.apiResponses.push(response);
  });
  return watched;
}

/** Makes the page look like the desktop app's renderer: a preload bridge that names the remote backend. */
async function desktopBridge(context: BrowserContext): Promise<void> {
  await installDesktopBridge(context, { url: backend, token: TOKEN, mode: 'remote', source: 'settings' });
}

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Projects' });
}

/** Starts a chat from the sidebar and has the scripted model answer it, which arrives over the socket. */
async function chat(page: Page, reply: string): Promise<void> {
  model.enqueue({ content: [{ type: 'text', text: reply }] });
  await sidebar(page).getByRole('button', { name: 'New chat' }).click();
  const box = page.getByLabel('Message');
  await box.waitFor({ timeout: UI_WAIT });
  await box.fill('hello over the network');
  await box.press('Enter');
  await expect.poll(() => page.getByText(reply).isVisible(), { timeout: UI_WAIT }).toBe(true);
}

function authenticatedOver(watched: Watched, url: string): boolean {
  return watched.sockets.some((s) => s.url === url && s.received.some((f) => f.includes('"authenticated"')));
}

describe('a remote backend over TLS, in Chromium', () => {
  it(
    'serves its web UI over https: the app loads, lists sessions, chats, and its socket is wss',
    async () => {
      const watched = await openPage();
      const { page } = watched;
      await page.goto(`${backend}/#token=${TOKEN}`);
      await expect.poll(() => sidebar(page).isVisible(), { timeout: UI_WAIT }).toBe(true);
      expect(page.url()).toBe(`${backend}/`);
      await expect
        .poll(() => sidebar(page).getByText(SESSION_TITLE).isVisible(), { timeout: UI_WAIT })
        .toBe(true);

      await chat(page, 'Answered through the served page.');
      expect(authenticatedOver(watched, `wss://cairn.test:${port}/api/ws`)).toBe(true);
      expect(watched.apiResponses.length).toBeGreaterThan(0);
      await screenshot(page, 'remote-served-ui');
      expect(watched.errors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'serves the desktop renderer from another origin: sessions over CORS with the token, chat over wss',
    async () => {
      const watched = await openPage(desktopBridge);
      const { page } = watched;
      await page.goto(`${deskOrigin}/`);
      await expect
        .poll(() => sidebar(page).getByText(SESSION_TITLE).isVisible(), { timeout: UI_WAIT })
        .toBe(true);
      // The page came from the desk origin, and every API call crossed to the backend with that Origin.
      expect(site.requests.map((r) => r.url)).toContain('/');
      const origins = await Promise.all(watched.apiResponses.map((r) => r.request().headerValue('origin')));
      expect(origins.length).toBeGreaterThan(0);
      expect(new Set(origins)).toEqual(new Set([deskOrigin]));

      await chat(page, 'Answered for the desktop renderer.');
      expect(authenticatedOver(watched, `wss://cairn.test:${port}/api/ws`)).toBe(true);
      await screenshot(page, 'remote-desktop-renderer');
      expect(watched.errors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'says on the connection screen that a wrong token was rejected',
    async () => {
      const { page } = await openPage();
      await page.goto(`${backend}/`);
      await page.getByRole('heading', { name: 'Connect to a Cairn server' }).waitFor({ timeout: UI_WAIT });
      expect(await page.getByLabel('Server address').inputValue()).toBe(backend);
      await page.getByLabel('Access token').fill(`${TOKEN}-wrong`);
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect
        .poll(() => page.getByText('rejected the token').isVisible(), { timeout: UI_WAIT })
        .toBe(true);
      await screenshot(page, 'remote-wrong-token');

      const refused = await api('GET', '/api/sessions', undefined, {
        authorization: `Bearer ${TOKEN}-wrong`,
      });
      expect(refused.status).toBe(401);
    },
    TEST_TIMEOUT,
  );

  it(
    'answers nothing to plain http, by name or by address',
    async () => {
      const { page } = await openPage();
      for (const url of [`http://cairn.test:${port}/#token=${TOKEN}`, `http://127.0.0.1:${port}/`]) {
        await expect(page.goto(url), url).rejects.toThrow(/net::ERR_/);
      }
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    },
    TEST_TIMEOUT,
  );

  it(
    'refuses a page from a foreign origin even with the right token, with no CORS headers',
    async () => {
      const evilOrigin = `https://evil.cairn.test:${site.port}`;
      const watched = await openPage(desktopBridge);
      const { page } = watched;
      const failed: string[] = [];
      page.on('requestfailed', (request) => {
        if (request.url().startsWith(`${backend}/api/`)) failed.push(request.url());
      });
      await page.goto(`${evilOrigin}/`);
      await expect.poll(() => failed.length, { timeout: UI_WAIT }).toBeGreaterThan(0);

      // Straight from the page: the fetch fails (CORS), and the socket never opens.
      const outcome = await page.evaluate(
        async ({ url, token }) => {
          const fetched = await fetch(`${url}/api/sessions`, {
            headers: { authorization: `Bearer ${token}` },
          }).then(
            (response) => `status ${response.status}`,
            (error: Error) => `failed: ${error.name}`,
          );
          const socket = await new Promise<string>((resolve) => {
            const ws = new WebSocket(`${url.replace(/^https/, 'wss')}/api/ws`);
            ws.onopen = () => resolve('open');
            ws.onclose = () => resolve('closed before opening');
          });
          return { fetched, socket };
        },
        { url: backend, token: TOKEN },
      );
      expect(outcome).toEqual({ fetched: 'failed: TypeError', socket: 'closed before opening' });
      expect(await page.getByText(SESSION_TITLE).count()).toBe(0);
      expect(watched.apiResponses.filter((r) => r.status() !== 403)).toEqual([]);
      // The app says so in its main area, beside the sidebar rather than under it.
      const problem = page
        .getByRole('main')
        .getByRole('alert')
        .filter({ hasText: `Cannot reach the Cairn server at ${backend}` });
      await problem.waitFor({ timeout: UI_WAIT });
      const [banner, side] = await Promise.all([problem.boundingBox(), sidebar(page).boundingBox()]);
      expect(banner!.x).toBeGreaterThanOrEqual(side!.x + side!.width);
      expect(banner!.y).toBeLessThan(side!.y + side!.height / 2);
      await screenshot(page, 'remote-foreign-origin');

      // What the browser saw, from Node: 403 and no CORS headers, token or not, preflight or not.
      const withToken = await api('GET', '/api/sessions', undefined, { origin: evilOrigin });
      expect(withToken.status).toBe(403);
      expect(corsHeaders(withToken)).toEqual([]);
      const preflight = await api('OPTIONS', '/api/sessions', undefined, {
        origin: evilOrigin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      });
      expect(preflight.status).toBe(403);
      expect(corsHeaders(preflight)).toEqual([]);
      // The configured origin, by contrast, gets its preflight answered without a token.
      const allowed = await api('OPTIONS', '/api/sessions', undefined, {
        authorization: null,
        origin: deskOrigin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      });
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe(deskOrigin);
    },
    TEST_TIMEOUT,
  );
});
