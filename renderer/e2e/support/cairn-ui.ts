// Starts a real sidecar that serves the built renderer, with the scripted model server, and a headless
// Chromium to drive it. Shared by the e2e tests and the renderer bench; no DOM types here (the bench is
// type-checked without them).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type RunningServer, startServer } from '../../../sidecar/src/server/start-server';
import { tempDir, testEnv } from '../../../sidecar/test/support/harness';
import { type LoopbackServer, listenOnLoopback } from '../../../sidecar/test/support/loopback-server';
import {
  type ModelServer,
  type ScriptedReply,
  startModelServer,
} from '../../../sidecar/test/support/model-server';
import { type SeedText, seedTurns as seedStoreTurns } from '../../../sidecar/test/support/seed-turns';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const DIST_DIR = path.join(REPO_ROOT, 'renderer', 'dist');
/** Screenshots of each run; `test-results/` at the repository root. */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-results', 'e2e');

const CHROMIUM = process.env.CAIRN_E2E_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Builds the renderer when `renderer/dist` has no index.html (`npm test` builds it before vitest). */
export function ensureRendererBuilt(): void {
  if (fs.existsSync(path.join(DIST_DIR, 'index.html'))) return;
  const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', path.join(REPO_ROOT, 'renderer', 'vite.config.ts'), '--logLevel', 'warn'],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  if (result.status !== 0 || !fs.existsSync(path.join(DIST_DIR, 'index.html'))) {
    throw new Error(
      `Building the renderer failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

export interface UiServer {
  server: RunningServer;
  model: ModelServer;
  /** Scripts the next model replies; `reset()` forgets those not used yet. Use this, not model.enqueue. */
  replies: ScriptedReplies;
  dataDir: string;
  /** A real folder to open as a project. */
  projectDir: string;
  close(): Promise<void>;
}

/** A sidecar on 127.0.0.1:0 serving renderer/dist, talking to a fresh scripted model server. */
export async function startUiServer(options: { env?: NodeJS.ProcessEnv } = {}): Promise<UiServer> {
  ensureRendererBuilt();
  const model = await startModelServer();
  const dataDir = tempDir('e2e-data');
  const projectDir = tempDir('e2e-project');
  fs.writeFileSync(path.join(projectDir, 'README.md'), '# e2e project\n');
  const env = testEnv(model, { CAIRN_TOKEN: `e2e-${randomBytes(16).toString('hex')}`, ...options.env });
  let server: RunningServer;
  try {
    server = await startServer({ dataDir, host: '127.0.0.1', port: 0, env, staticDir: DIST_DIR });
  } catch (error) {
    await model.close();
    throw error;
  }
  return {
    server,
    model,
    replies: scriptedReplies(model),
    dataDir,
    projectDir,
    async close() {
      await server.stop();
      await model.close();
      fs.rmSync(projectDir, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ScriptedReplies {
  enqueue(...replies: ScriptedReply[]): void;
  /** Drops replies a failed test left unused, so they cannot answer the next test's requests. */
  reset(): void;
}

/**
 * Replies that one test scripts and another cannot inherit: the model server only ever holds identical
 * dispatchers that take the next reply from a list the tests can empty.
 */
function scriptedReplies(model: ModelServer): ScriptedReplies {
  const pending: ScriptedReply[] = [];
  const dispatch: ScriptedReply = {
    kind: 'handler',
    handle: () =>
      pending.shift() ?? {
        kind: 'http_error',
        status: 500,
        type: 'api_error',
        message: 'e2e: no reply was scripted for this request',
        headers: { 'x-should-retry': 'false' },
      },
  };
  return {
    enqueue(...replies) {
      pending.push(...replies);
      model.enqueue(...replies.map(() => dispatch));
    },
    reset() {
      pending.length = 0;
    },
  };
}

/** Cancels every running turn, so a failed test leaves nothing waiting behind. */
export async function cancelRunningTurns(ui: UiServer): Promise<void> {
  const { store, runtime } = ui.server.core;
  const running = store.sessions.list().flatMap((s) => (s.running_turn_id ? [s.running_turn_id] : []));
  await Promise.all(running.map((id) => runtime.cancelTurn(id).catch(() => undefined)));
  await Promise.all(running.map((id) => runtime.waitForTurn(id).catch(() => undefined)));
}

/** Headless Debian Chromium (never a downloaded browser), with `extraArgs` after the usual flags. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium fonts-noto-cjk`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * Serves renderer/dist (static files only, no API) on a loopback port of its own, over HTTPS with
 * `tls`: the page's origin is whatever name reaches it, as the desktop app's own origin would be.
 */
export async function serveRendererDist(
  options: { tls?: { cert: Buffer; key: Buffer } } = {},
): Promise<LoopbackServer> {
  ensureRendererBuilt();
  const root = path.resolve(DIST_DIR);
  return listenOnLoopback(
    (req, res) => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://dist').pathname);
      const file = path.resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
      if (!file.startsWith(`${root}${path.sep}`) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
    },
    { tls: options.tls },
  );
}

export async function newContext(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; locale?: string } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-US',
    reducedMotion: 'reduce',
  });
}

/** Saves a full-page screenshot under test-results/e2e/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Creates a project for the folder and a session in it, straight through the store. */
export function createSession(ui: UiServer, title = 'e2e session'): { projectId: string; sessionId: string } {
  const { store } = ui.server.core;
  const project = store.projects.upsertByPath(ui.projectDir);
  const session = store.sessions.create({ projectId: project.id, title });
  return { projectId: project.id, sessionId: session.id };
}

/** Seeds `count` finished turns ("prompt i" / "answer i" unless `text` says otherwise). */
export function seedTurns(ui: UiServer, sessionId: string, count: number, text?: SeedText): void {
  seedStoreTurns(ui.server.core.store, sessionId, count, text);
}
