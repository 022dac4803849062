// The renderer's bench: a 2,000-turn session opened in headless Chromium against a real sidecar.
// In-page code is passed as strings so that this file type-checks without the DOM library (scripts/).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import {
  cancelRunningTurns,
  createSession,
  DIST_DIR,
  launchChromium,
  newContext,
  seedTurns,
  startUiServer,
  type UiServer,
} from './support/cairn-ui';
import { FLOOR_PAGE_HTML, FLOOR_PAGE_PATH } from './support/floor-page';

const TURNS = 2_000;
const REFERENCE_ROUNDS = 5;
const FIRST_RENDER_ROUNDS = 5;
const SLOW_CPU = 4;
const WAIT_MS = 120_000;
const SESSION_TITLE = 'bench session';
const EMPTY_TITLE = 'empty session';
const TYPED = 'a question typed while the answer streams';
/** A slow answer: many small blocks, 25 ms apart, so it is still streaming while the bench types. */
const SLOW_BLOCKS = 120;
const SLOW_DELAY_MS = 25;

/** Records every long task (>50 ms on the main thread) from page start, with its start time. */
const LONG_TASK_OBSERVER = `
  window.__cairnLongTasks = [];
  window.__cairnKeyEvents = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__cairnLongTasks.push(entry.startTime);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  try {
    // Event Timing: from the key press to the next paint after its handlers ran (what a typist feels).
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'keydown') window.__cairnKeyEvents.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  } catch {}
`;

const TRANSCRIPT = `document.querySelector('[data-testid="transcript"]')`;

/** Markdown of the kind a session holds: prose, now and then a list or a code block. */
function seededText(i: number): { prompt: string; answer: string } {
  let answer = `answer ${i}: the change to module ${i % 37} is done, and the tests for it pass.`;
  if (i % 5 === 0) answer += `\n\n- first point about ${i}\n- second point\n- third point`;
  if (i % 7 === 0)
    answer += `\n\n\`\`\`ts\nexport const value${i} = ${i} * 2;\nconsole.log(value${i});\n\`\`\``;
  return { prompt: `prompt ${i}`, answer };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Polls an expression in the page. (waitForFunction would compile it with eval, which the app's
 * Content-Security-Policy forbids, and rightly so.)
 */
async function waitUntil(page: Page, expression: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Scrolls the transcript up a screen at a time, clicking "Load earlier" whenever it shows. */
async function scrollToFirstTurn(page: Page): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (Date.now() > deadline) throw new Error('bench: the first turn never came into view');
    const state = await page.evaluate<{
      top: number;
      loadEarlier: boolean;
      loading: boolean;
      first: boolean;
    }>(`(() => {
      const el = ${TRANSCRIPT};
      el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight);
      const button = document.querySelector('.load-earlier button');
      return {
        top: el.scrollTop,
        loadEarlier: button !== null,
        loading: button !== null && button.disabled,
        first: document.querySelector('article.turn[data-turn-ordinal="1"]') !== null,
      };
    })()`);
    if (state.top === 0 && !state.loadEarlier && state.first) return;
    if (state.loadEarlier && !state.loading && state.top === 0) {
      await page.click('.load-earlier button');
      await waitUntil(page, `!document.querySelector('.load-earlier button:disabled')`);
    }
    // One frame per step, like a reader dragging the scrollbar.
    await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => resolve(null)))`);
  }
}

/**
 * Notes, in the page, the first frame in which the newest turn's prompt and answer are on screen
 * (window.__cairnNewestAt). Cheap enough to run every frame: one attribute lookup until the turn exists.
 */
const NEWEST_TURN_WATCH = `
  window.__cairnNewestAt = null;
  const watch = () => {
    const turn = document.querySelector('article.turn[data-turn-ordinal="${TURNS}"]');
    if (turn && turn.textContent.includes('prompt ${TURNS}') && turn.textContent.includes('answer ${TURNS}:')) {
      const box = turn.getBoundingClientRect();
      if (box.height > 0 && box.bottom > 0 && box.top < innerHeight && turn.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
        window.__cairnNewestAt = performance.now();
        return;
      }
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
`;

/**
 * Uncompressed sizes of the scripts the page had loaded when the newest turn was first on screen, and of
 * all it has loaded so far (chunks asked for after that, like the highlighter, which colours code blocks
 * once they show, arrive while the bench is still noticing the turn).
 */
const SCRIPT_BYTES = `(() => {
  const scripts = performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
  const sum = (entries) => entries.reduce((total, entry) => total + entry.decodedBodySize, 0);
  if (window.__cairnNewestAt === null) throw new Error('bench: the newest turn was never seen on screen in the page');
  return { before: sum(scripts.filter((entry) => entry.responseEnd <= window.__cairnNewestAt)), all: sum(scripts) };
})()`;

/** The size of the script index.html loads first (the entry chunk), in bytes. */
function entryChunkBytes(): number {
  const html = fs.readFileSync(path.join(DIST_DIR, 'index.html'), 'utf8');
  const src = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('bench: renderer/dist/index.html names no module script; rebuild the renderer');
  return fs.statSync(path.join(DIST_DIR, src)).size;
}

export interface KeyTiming {
  keystrokes: number;
  longTasks: number;
  /** keystrokes whose keydown took over 16 ms to paint */
  slowKeys: number;
  worstKeyMs: number;
  medianKeyMs: number;
}

/**
 * Types into the composer while a slow answer streams into the 2,000-turn session: long tasks during the
 * typing, and the slowest keystroke (Event Timing duration of keydown, only those over 16 ms are reported).
 */
async function typeWhileStreaming(page: Page, ui: UiServer): Promise<KeyTiming> {
  const blocks = Array.from({ length: SLOW_BLOCKS }, (_, i) => ({
    type: 'text' as const,
    text: `streamed part ${i} of a long answer, with a few more words in it. `,
  }));
  ui.replies.enqueue({ delayMs: SLOW_DELAY_MS, content: blocks });
  const box = page.getByLabel('Message');
  await box.fill('start a slow answer');
  await box.press('Enter');
  await page.getByText('streamed part 3 ', { exact: false }).first().waitFor({ timeout: WAIT_MS });
  const typing = await typeAndTime(page);
  const stillStreaming = await page.evaluate<boolean>(
    `!document.body.textContent.includes('streamed part ${SLOW_BLOCKS - 1} ')`,
  );
  await cancelRunningTurns(ui);
  if (!stillStreaming) throw new Error('bench: the answer finished before the typing did; slow it down');
  return typing;
}

/** Types TYPED into the (empty) composer a key at a time and reads what the page observed meanwhile. */
async function typeAndTime(page: Page): Promise<KeyTiming> {
  const box = page.getByLabel('Message');
  const start = await page.evaluate<number>('performance.now()');
  await box.focus();
  await page.keyboard.type(TYPED, { delay: 30 });
  // Let the last keystroke paint and its event entry arrive.
  await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))`);
  const end = await page.evaluate<number>('performance.now()');
  const typed = await box.inputValue();
  if (typed !== TYPED)
    throw new Error(`bench: the composer holds ${JSON.stringify(typed)}, not what was typed`);
  const longTasks = await page.evaluate<number>(
    `window.__cairnLongTasks.filter((s) => s >= ${start} && s <= ${end}).length`,
  );
  const keys = await page.evaluate<number[]>(
    `window.__cairnKeyEvents.filter((e) => e.start >= ${start} && e.start <= ${end}).map((e) => e.duration)`,
  );
  await box.fill('');
  // Keystrokes under 16 ms are not reported by Event Timing; they count as 0 in the median.
  const all = [...keys, ...Array.from({ length: Math.max(0, TYPED.length - keys.length) }, () => 0)];
  return {
    keystrokes: TYPED.length,
    longTasks,
    slowKeys: keys.length,
    worstKeyMs: keys.length ? Math.max(...keys) : 0,
    medianKeyMs: median(all),
  };
}

/**
 * Clicks the session's button in the sidebar the moment it shows, polled in the page: Playwright's own
 * click retries on a back-off (up to 100 ms apart, then waits for two stable frames), which would be
 * measured as if it were the app's.
 */
async function clickWhenShown(page: Page, title: string): Promise<void> {
  await page.evaluate(`new Promise((resolve, reject) => {
    const began = performance.now();
    const poll = () => {
      const button = [...document.querySelectorAll('nav button')].find((b) => b.textContent === ${JSON.stringify(title)});
      if (button) {
        button.click();
        resolve(null);
      } else if (performance.now() - began > ${WAIT_MS}) reject(new Error('bench: no session button'));
      else setTimeout(poll, 2);
    };
    poll();
  })`);
}

/** Long tasks while scrolling from the newest turn to the first. */
async function longTasksWhileScrolling(page: Page): Promise<number> {
  const scrollStart = await page.evaluate<number>('performance.now()');
  await scrollToFirstTurn(page);
  await page.getByText('prompt 1', { exact: true }).waitFor({ state: 'visible', timeout: WAIT_MS });
  return page.evaluate<number>(`window.__cairnLongTasks.filter((start) => start >= ${scrollStart}).length`);
}

/**
 * Loads the app (or, with `floor`, the bench's page with no framework making the same requests), picks
 * the 2,000-turn session, and records how long until its newest turn shows.
 */
async function openNewestTurn(
  context: BrowserContext,
  ui: UiServer,
  times: number[],
  floor = false,
): Promise<Page> {
  const page = await context.newPage();
  const floorUrl = `${ui.server.url}${FLOOR_PAGE_PATH}`;
  if (floor)
    await page.route(floorUrl, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: FLOOR_PAGE_HTML }),
    );
  const token = new URL(ui.server.browserUrl).hash;
  const began = performance.now();
  await page.goto(floor ? `${floorUrl}${token}` : ui.server.browserUrl, { waitUntil: 'commit' });
  await clickWhenShown(page, SESSION_TITLE);
  await page.getByText(`prompt ${TURNS}`, { exact: true }).waitFor({ state: 'visible', timeout: WAIT_MS });
  await page.getByText(`answer ${TURNS}:`).waitFor({ state: 'visible', timeout: WAIT_MS });
  times.push(performance.now() - began);
  return page;
}

/**
 * firstRenderMs (median of FIRST_RENDER_ROUNDS, each in a fresh context): from navigation to the newest
 * turn of a 2,000-turn session being visible (the session is
 * picked in the sidebar as soon as it shows). longTasks: main-thread tasks over 50 ms while scrolling
 * that transcript to its first turn. referenceMs: median time to load a static page of the same server.
 */
export interface RendererBench {
  firstRenderMs: number;
  /** The same, for the bench's page with no framework making the same requests (support/floor-page.ts). */
  floorRenderMs: number;
  longTasks: number;
  /** The same, with the CPU throttled SLOW_CPU times. */
  longTasksSlowCpu: number;
  referenceMs: number;
  /** Uncompressed script bytes loaded before the newest turn was first on screen (seen in the page). */
  scriptBytes: number;
  /** The same, by the time the bench had noticed the turn (chunks the page asked for after showing it). */
  scriptBytesLater: number;
  entryBytes: number;
  typing: KeyTiming;
  /** The same typing in an empty session with nothing streaming. */
  typingReference: KeyTiming;
}

export async function benchRenderer(): Promise<RendererBench> {
  const ui = await startUiServer();
  const browser = await launchChromium();
  try {
    createSession(ui, EMPTY_TITLE);
    const { sessionId } = createSession(ui, SESSION_TITLE);
    seedTurns(ui, sessionId, TURNS, seededText);
    const context = await newContext(browser);
    await context.addInitScript({ content: LONG_TASK_OBSERVER });

    // Reference: the same server and browser, a page with nothing to run.
    const reference: number[] = [];
    const plain = await context.newPage();
    for (let i = 0; i < REFERENCE_ROUNDS; i += 1) {
      const began = performance.now();
      await plain.goto(`${ui.server.url}/api/health`, { waitUntil: 'load' });
      await waitUntil(plain, `document.body !== null && document.body.textContent.includes('"ok":true')`);
      reference.push(performance.now() - began);
    }
    await plain.close();

    // The median of a few first loads, each in a fresh context (nothing cached), the last one kept.
    const firstRenders: number[] = [];
    let page: Page | null = null;
    for (let i = 0; i < FIRST_RENDER_ROUNDS; i += 1) {
      if (page) await page.context().close();
      const fresh = await newContext(browser);
      await fresh.addInitScript({ content: LONG_TASK_OBSERVER + NEWEST_TURN_WATCH });
      page = await openNewestTurn(fresh, ui, firstRenders);
    }
    if (!page) throw new Error('bench: FIRST_RENDER_ROUNDS must be at least 1');
    const scripts = await page.evaluate<{ before: number; all: number }>(SCRIPT_BYTES);
    // The floor: the same loads of a page with no framework (what no app can beat).
    const floorRenders: number[] = [];
    for (let i = 0; i < FIRST_RENDER_ROUNDS; i += 1) {
      const fresh = await newContext(browser);
      await openNewestTurn(fresh, ui, floorRenders, true);
      await fresh.close();
    }

    // A slower machine, as Lighthouse has it (CPU 4× slower): long tasks show there first.
    const slowContext = await newContext(browser);
    await slowContext.addInitScript({ content: LONG_TASK_OBSERVER });
    const slowPage = await openNewestTurn(slowContext, ui, []);
    const cdp = await slowContext.newCDPSession(slowPage);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_CPU });
    const longTasksSlowCpu = await longTasksWhileScrolling(slowPage);
    await slowContext.close();

    const longTasks = await longTasksWhileScrolling(page);
    const typing = await typeWhileStreaming(page, ui);
    await clickWhenShown(page, EMPTY_TITLE);
    await page.getByLabel('Message').waitFor({ timeout: WAIT_MS });
    const typingReference = await typeAndTime(page);
    await page.context().close();
    await context.close();
    return {
      firstRenderMs: median(firstRenders),
      floorRenderMs: median(floorRenders),
      longTasks,
      longTasksSlowCpu,
      referenceMs: median(reference),
      scriptBytes: scripts.before,
      scriptBytesLater: scripts.all,
      entryBytes: entryChunkBytes(),
      typing,
      typingReference,
    };
  } finally {
    await browser.close();
    await ui.close();
  }
}

// `npx tsx renderer/e2e/ui-bench.ts` runs it on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchRenderer().then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
