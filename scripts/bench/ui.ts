// Section (d): the renderer in headless Chromium, as table rows.
import { benchRenderer, type KeyTiming } from '../../renderer/e2e/ui-bench';
import type { Row } from './util';

const SECTION = '(d) the UI in headless Chromium, a 2,000-turn session';
/** Issue 19's budget for the script the first screen needs. */
const FIRST_SCREEN_BUDGET = 350 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const keys = (t: KeyTiming) =>
  `median ${t.medianKeyMs.toFixed(0)} ms, worst ${t.worstKeyMs.toFixed(0)} ms, ${t.slowKeys}/${t.keystrokes} over 16 ms`;

export async function benchUi(): Promise<Row[]> {
  const ui = await benchRenderer();
  return [
    {
      section: SECTION,
      what: 'navigation → newest turn visible',
      value: `${ui.firstRenderMs.toFixed(0)} ms`,
      reference: `${ui.referenceMs.toFixed(0)} ms`,
      ratio: `${(ui.firstRenderMs / ui.referenceMs).toFixed(2)}×`,
      note: 'median of 5 loads, each in a fresh context; reference: a minimal static page from the same server',
    },
    {
      section: SECTION,
      what: 'the same, on a page with no framework (the floor)',
      value: `${ui.floorRenderMs.toFixed(0)} ms`,
      reference: `${ui.referenceMs.toFixed(0)} ms`,
      ratio: `${(ui.floorRenderMs / ui.referenceMs).toFixed(2)}×`,
      note: "a few lines of script making the app's requests and writing the turns as text; no app can beat it",
    },
    {
      section: SECTION,
      what: 'script loaded before the newest turn was visible',
      value: kb(ui.scriptBytes),
      reference: kb(FIRST_SCREEN_BUDGET),
      ratio: `${(ui.scriptBytes / FIRST_SCREEN_BUDGET).toFixed(2)}×`,
      note: `uncompressed, finished loading when the turn was first on screen (seen in the page); entry chunk ${kb(ui.entryBytes)}; ${kb(ui.scriptBytesLater)} by the time the bench noticed it (chunks asked for after it showed, e.g. the highlighter); reference: the budget of issue 19`,
    },
    {
      section: SECTION,
      what: 'long tasks while scrolling to the first turn',
      value: String(ui.longTasks),
      reference: '0',
      note: 'main-thread tasks over 50 ms (PerformanceObserver longtask)',
    },
    {
      section: SECTION,
      what: 'long tasks while scrolling to the first turn, CPU 4× slower',
      value: String(ui.longTasksSlowCpu),
      reference: '0',
      note: 'the same scroll with Chromium CPU throttling (Emulation.setCPUThrottlingRate 4)',
    },
    {
      section: SECTION,
      what: `typing ${ui.typing.keystrokes} keys while a turn streams: long tasks`,
      value: String(ui.typing.longTasks),
      reference: String(ui.typingReference.longTasks),
      note: 'reference: the same typing in an empty session, nothing streaming',
    },
    {
      section: SECTION,
      what: 'typing while a turn streams: key → paint',
      value: keys(ui.typing),
      reference: keys(ui.typingReference),
      note: 'Event Timing keydown durations (only those over 16 ms are reported; the rest count as 0)',
    },
  ];
}
