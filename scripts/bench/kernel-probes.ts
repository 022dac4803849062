// What section (e) of `npm run bench` does to a Cairn kernel, timed from here as a client sees it.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MAX_STREAM_CHARS, STREAM_LIMIT_NOTE } from '../../sidecar/src/kernels/cell-run';
import type { KernelManager } from '../../sidecar/src/kernels/kernel-manager';
import type { KernelProcess } from '../../sidecar/src/kernels/kernel-process';
import type { ExecutionResult, KernelEvent } from '../../sidecar/src/kernels/kernel-types';
import type { ManagedKernel } from '../../sidecar/src/kernels/managed-kernel';
import { REFERENCE_PYTHON } from './jupyter-reference';

export const ROUND_TRIP = '1+1';

export interface Flavour {
  key: 'stdlib' | 'ipython';
  label: string;
  /** null: `python3` on PATH, found the way a project without settings finds it */
  pythonPath: string | null;
  ipython: boolean;
}

export const FLAVOURS: Flavour[] = [
  { key: 'stdlib', label: 'stdlib driver (python3 on PATH, no IPython)', pythonPath: null, ipython: false },
  {
    key: 'ipython',
    label: `IPython driver (${REFERENCE_PYTHON})`,
    pythonPath: REFERENCE_PYTHON,
    ipython: true,
  },
];

type Timed = (event: KernelEvent, at: number) => void;

/** One session's default kernel, with the session's events handed to whoever listens now. */
export class CairnSession {
  listener: Timed | null = null;
  readonly kernel: ManagedKernel;

  constructor(
    readonly manager: KernelManager,
    readonly id: string,
    readonly flavour: Flavour,
    dir: string,
  ) {
    const session = manager.openSession(id, {
      projectRoot: dir,
      pythonPath: flavour.pythonPath,
      kernelsDir: path.join(dir, '.cairn', id, 'kernels'),
      artifactsDir: path.join(dir, '.cairn', 'artifacts'),
      onEvent: (event) => this.listener?.(event, performance.now()),
    });
    this.kernel = session.kernel();
  }

  async run(code: string, listener: Timed | null = null): Promise<ExecutionResult> {
    this.listener = listener;
    try {
      const result = await this.kernel.execute(code);
      if (result.kernelExit) throw new Error(`the ${this.id} kernel exited: ${JSON.stringify(result)}`);
      return result;
    } finally {
      this.listener = null;
    }
  }
}

export function expectValue(result: ExecutionResult, text: string, what: string): void {
  if (!result.success || result.returnValue?.text !== text)
    throw new Error(`${what}: expected ${text}, got ${JSON.stringify(result.error ?? result.returnValue)}`);
}

const printLoop = (lines: number, width: number) =>
  `line = 'x' * ${width - 1}\nfor _ in range(${lines}):\n    print(line)`;
const inputLoop = (n: number) => `answers = [input('? ') for _ in range(${n})]\nlen(answers)`;
const SLEEP = "import sys, time\nprint('go'); sys.stdout.flush()\ntime.sleep(100)";

/** Start of a new session to its kernel's start and to its first `1+1` result. */
export async function firstCall(
  s: CairnSession,
  wantWarm: boolean,
): Promise<{ readyMs: number; firstMs: number }> {
  let readyAt = Number.NaN;
  let started: Extract<KernelEvent, { type: 'kernel.started' }> | null = null;
  const began = performance.now();
  const result = await s.run(ROUND_TRIP, (event, at) => {
    if (event.type !== 'kernel.started') return;
    readyAt = at;
    started = event;
  });
  const firstMs = performance.now() - began;
  expectValue(result, '2', 'first call');
  const { warm, ipython } = started ?? { warm: null, ipython: null };
  if (warm !== wantWarm || ipython !== s.flavour.ipython)
    throw new Error(
      `expected warm=${wantWarm} ipython=${s.flavour.ipython}, got warm=${warm} ipython=${ipython}`,
    );
  return { readyMs: readyAt - began, firstMs };
}

export async function timeEach(run: () => Promise<void>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const began = performance.now();
    await run();
    times.push(performance.now() - began);
  }
  return times;
}

/**
 * The print loop through the manager (counting its stream events) or on the bare process. The manager sends
 * only the first MAX_STREAM_CHARS live (then a note) and keeps the start and the end in the result, so
 * through it every byte still crosses from the driver, but fewer are counted here.
 */
export async function throughput(
  on: CairnSession | KernelProcess,
  lines: number,
  width: number,
): Promise<number> {
  let bytes = 0;
  const count = (stream: string, text: string) => {
    if (stream === 'stdout' && text !== STREAM_LIMIT_NOTE) bytes += text.length;
  };
  const total = lines * width;
  const began = performance.now();
  let success: boolean;
  let expected = total;
  if (on instanceof CairnSession) {
    const result = await on.run(printLoop(lines, width), (e) => {
      if (e.type === 'kernel.stream') count(e.stream, e.text);
    });
    success = result.success && result.stdout.endsWith(`${'x'.repeat(width - 1)}\n`);
    expected = Math.min(total, MAX_STREAM_CHARS);
  } else {
    success = (await on.execute(printLoop(lines, width), { onStream: count })).success;
  }
  const took = performance.now() - began;
  if (!success || bytes !== expected)
    throw new Error(`print loop: success=${success}, ${bytes} of ${expected} bytes seen live`);
  return took;
}

/** One cell calling input() n times, answered at once; a round trip is one request to the next. */
export async function inputs(s: CairnSession, n: number): Promise<number[]> {
  const arrivals: number[] = [];
  const result = await s.run(inputLoop(n), (event, at) => {
    if (event.type !== 'kernel.input_request') return;
    arrivals.push(at);
    s.kernel.reply(event.request_id, 'x');
  });
  expectValue(result, String(n), 'input loop');
  return arrivals.slice(1).map((at, i) => at - arrivals[i]!);
}

/** From the interrupt, sent as soon as the cell has printed, to the cell's KeyboardInterrupt result. */
export async function interrupt(s: CairnSession): Promise<number> {
  let sentAt = Number.NaN;
  const result = await s.run(SLEEP, (event, at) => {
    if (event.type === 'kernel.stream' && Number.isNaN(sentAt) && event.text.includes('go')) {
      sentAt = at;
      s.kernel.interrupt();
    }
  });
  const took = performance.now() - sentAt;
  if (result.error?.type !== 'KeyboardInterrupt')
    throw new Error(`interrupt: expected KeyboardInterrupt, got ${JSON.stringify(result.error)}`);
  return took;
}
