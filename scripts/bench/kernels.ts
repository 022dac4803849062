import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PythonCommand } from '../../sidecar/src/kernels/driver-spawn';
import { KernelManager } from '../../sidecar/src/kernels/kernel-manager';
import { KernelProcess } from '../../sidecar/src/kernels/kernel-process';
import { resolvePython } from '../../sidecar/src/kernels/python-resolver';
import { childEnv } from '../../sidecar/src/tools/child-env';
import { APT_PACKAGES, JupyterReference, referenceMissing } from './jupyter-reference';
import {
  CairnSession,
  expectValue,
  FLAVOURS,
  type Flavour,
  firstCall,
  inputs,
  interrupt,
  ROUND_TRIP,
  throughput,
  timeEach,
} from './kernel-probes';
import { median, ms, percentile, type Row, ratio, tempDir } from './util';

const MIB = 1024 * 1024;

export interface KernelBenchOptions {
  coldRuns: number;
  warmRuns: number;
  roundTrips: number;
  /**
   * stdout throughput, each `rounds` times: `lines` print() calls of `width` bytes each (newline included).
   * The target is judged on the first.
   */
  outputs: { lines: number; width: number }[];
  rounds: number;
  inputs: number;
  interrupts: number;
}

/** Every figure of one subject (a Cairn driver, or the reference), in ms. */
interface Figures {
  ready: number[];
  first: number[];
  /** bare KernelProcess.start() (Cairn) */
  processReady: number[];
  warm: number[];
  rt: number[];
  /** bare KernelProcess (Cairn); until execute_result, the value in hand (reference) */
  rtAlt: number[];
  /** per entry of `outputs` */
  tp: number[][];
  tpRaw: number[][];
  input: number[];
  interrupt: number[];
}

const figures = (outputs: unknown[]): Figures => ({
  ready: [],
  first: [],
  processReady: [],
  warm: [],
  rt: [],
  rtAlt: [],
  tp: outputs.map(() => []),
  tpRaw: outputs.map(() => []),
  input: [],
  interrupt: [],
});

interface Context {
  o: KernelBenchOptions;
  dir: string;
  env: NodeJS.ProcessEnv;
  flavours: Flavour[];
  pythons: Map<Flavour['key'], PythonCommand>;
  ref: JupyterReference | null;
  managers: KernelManager[];
  raws: KernelProcess[];
  cairn: Map<Flavour['key'], Figures>;
  jupyter: Figures;
}

function newManager(c: Context, flavour: Flavour, warm: boolean): KernelManager {
  const manager = new KernelManager({ env: () => c.env, ipython: flavour.ipython, warm });
  c.managers.push(manager);
  return manager;
}

/** Cold starts (in turns with the reference; the first of each unmeasured), then warm ones. */
async function measureStarts(c: Context): Promise<void> {
  const { o, ref } = c;
  const managers = new Map(c.flavours.map((f) => [f.key, newManager(c, f, false)]));
  for (let i = 0; i <= o.coldRuns; i++) {
    const keep = i > 0; // the first run fills the file cache and writes the fresh IPython profile
    if (ref) {
      const r = await ref.call({ cmd: 'cold_start' });
      const [ready, first] = [r.ready_ms as number, r.first_ms as number];
      if (keep) c.jupyter.ready.push(ready);
      if (keep) c.jupyter.first.push(ready + first);
    }
    for (const f of c.flavours) {
      const fig = c.cairn.get(f.key)!;
      const manager = managers.get(f.key)!;
      const s = new CairnSession(manager, `ses_cold_${f.key}_${i}`, f, c.dir);
      const t = await firstCall(s, false);
      await manager.shutdownSession(s.id);
      const began = performance.now();
      const bare = await KernelProcess.start({
        python: c.pythons.get(f.key)!,
        cwd: c.dir,
        env: c.env,
        ipython: f.ipython,
      });
      const processReady = performance.now() - began;
      c.raws.push(bare); // stopped at the end too, should this loop throw before the next line
      await bare.shutdown(1_000);
      if (!keep) continue;
      fig.ready.push(t.readyMs);
      fig.first.push(t.firstMs);
      fig.processReady.push(processReady);
    }
  }
  for (const f of c.flavours) {
    const manager = newManager(c, f, true);
    // Spares start at a session's first use and go when no open session needs them: one kept open keeps
    // the spare coming back after each measured session.
    await firstCall(new CairnSession(manager, `ses_keeper_${f.key}`, f, c.dir), false);
    for (let i = 0; i < o.warmRuns; i++) {
      const s = new CairnSession(manager, `ses_warm_${f.key}_${i}`, f, c.dir);
      const deadline = performance.now() + 30_000;
      while (manager.warmPids().length === 0) {
        if (performance.now() > deadline) throw new Error('no warm kernel after 30 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      c.cairn.get(f.key)!.warm.push((await firstCall(s, true)).firstMs);
      await manager.shutdownSession(s.id);
    }
  }
}

/** On running kernels, one per subject, taken in turns so drifting load falls on each alike. */
async function measureRunning(c: Context): Promise<void> {
  const { o, ref } = c;
  if (ref) await ref.call({ cmd: 'open' });
  const sessions = c.flavours.map((f) => {
    const session = new CairnSession(newManager(c, f, false), `ses_${f.key}`, f, c.dir);
    return { f, fig: c.cairn.get(f.key)!, session };
  });
  const raws = new Map<Flavour['key'], KernelProcess>();
  for (const f of c.flavours) {
    const raw = await KernelProcess.start({
      python: c.pythons.get(f.key)!,
      cwd: c.dir,
      env: c.env,
      ipython: f.ipython,
    });
    c.raws.push(raw);
    raws.set(f.key, raw);
  }
  const batches = 6;
  for (let b = 0; b <= batches; b++) {
    const n = b === 0 ? 20 : Math.ceil(o.roundTrips / batches); // batch 0 warms up
    const keep = b > 0;
    if (ref) {
      const r = await ref.call({ cmd: 'round_trip', n });
      if (keep) c.jupyter.rt.push(...(r.ms as number[]));
      if (keep) c.jupyter.rtAlt.push(...(r.value_ms as number[]));
    }
    for (const { f, fig, session } of sessions) {
      const managed = await timeEach(async () => expectValue(await session.run(ROUND_TRIP), '2', '1+1'), n);
      const bare = await timeEach(async () => {
        const result = await raws.get(f.key)!.execute(ROUND_TRIP);
        if (result.returnValue?.['text/plain'] !== '2') throw new Error('1+1 on the bare process failed');
      }, n);
      if (keep) fig.rt.push(...managed);
      if (keep) fig.rtAlt.push(...bare);
    }
  }
  for (let i = 0; i < Math.max(o.rounds, o.interrupts); i++) {
    if (i < o.rounds) {
      for (const [k, { lines, width }] of o.outputs.entries()) {
        if (ref) c.jupyter.tp[k]!.push((await ref.call({ cmd: 'throughput', lines, width })).ms as number);
        for (const { f, fig, session } of sessions) {
          fig.tp[k]!.push(await throughput(session, lines, width));
          fig.tpRaw[k]!.push(await throughput(raws.get(f.key)!, lines, width));
        }
      }
      if (ref) c.jupyter.input.push(...((await ref.call({ cmd: 'input', n: o.inputs })).ms as number[]));
      for (const { fig, session } of sessions) fig.input.push(...(await inputs(session, o.inputs)));
    }
    if (i < o.interrupts) {
      if (ref) c.jupyter.interrupt.push((await ref.call({ cmd: 'interrupt' })).ms as number);
      for (const { fig, session } of sessions) fig.interrupt.push(await interrupt(session));
    }
  }
}

const m = (values: number[]) => (values.length ? median(values) : Number.NaN);
const mibps = (bytes: number, tookMs: number) => bytes / MIB / (tookMs / 1000);
const list = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join('/');
const msAt = (digits: number) => (v: number) => ms(v, digits);

/** The rows of one Cairn driver; the targets (for the stdlib driver) in the notes. */
function rowsOf(c: Context, f: Flavour, versions: string): Row[] {
  const { o } = c;
  const s = c.cairn.get(f.key)!;
  const j = c.jupyter;
  const stdlib = f.key === 'stdlib';
  const section = `(e) Python kernels: Cairn ${f.label} vs ${c.ref ? versions : 'no reference (skipped)'}${stdlib && c.ref ? '; issue 5 targets beside' : ''}`;
  const has = c.ref !== null;
  /** Note parts; those about the reference only when there is one. */
  const join = (...parts: (string | false)[]) => parts.filter(Boolean).join('; ');
  const vs = (subject: string, reference: string, unit: string) =>
    has ? `${subject} vs ${reference} ${unit}` : `${subject} ${unit}`;
  const row = (
    what: string,
    subject: number,
    reference: number,
    note: string,
    opts: { unit: (v: number) => string; higherIsBetter?: boolean; wanted?: number },
  ): Row => {
    const factor = opts.higherIsBetter ? subject / reference : reference / subject;
    const aim =
      stdlib && opts.wanted !== undefined && has
        ? `target ≥ ${opts.wanted}× faster: ${factor >= opts.wanted ? 'met' : 'NOT met'} (${factor.toFixed(1)}×)`
        : false;
    return {
      section,
      what,
      value: opts.unit(subject),
      reference: has ? opts.unit(reference) : 'n/a',
      ratio: has ? ratio(subject, reference) : 'n/a',
      note: join(aim, note),
    };
  };
  const rate = (v: number) => `${v.toFixed(0)} MiB/s`;
  const outputRows = o.outputs.map(({ lines, width }, k) => {
    const bytes = lines * width;
    const [tp, tpRef, tpRaw] = [s.tp[k]!, j.tp[k]!, s.tpRaw[k]!];
    return row(
      `stdout: ${(bytes / MIB).toFixed(0)} MiB as ${lines} print() of ${width / 1024} KiB, MiB/s`,
      mibps(bytes, m(tp)),
      mibps(bytes, m(tpRef)),
      join(
        'higher is better',
        `median of ${o.rounds}: ${vs(list(tp), list(tpRef), 'ms')}`,
        `bare KernelProcess ${rate(mibps(bytes, m(tpRaw)))}`,
      ),
      { unit: rate, higherIsBetter: true, ...(k === 0 ? { wanted: 3 } : {}) },
    );
  });
  return [
    row(
      `cold start: new session → kernel ready, median of ${o.coldRuns}`,
      m(s.ready),
      m(j.ready),
      join(
        `no warm kernel, finding Python included (bare KernelProcess.start ${ms(m(s.processReady), 0)})`,
        has && 'reference: start_new_kernel() to its kernel_info reply',
        vs(list(s.ready), list(j.ready), 'ms'),
      ),
      { unit: msAt(0), wanted: 5 },
    ),
    row(
      'cold start: new session → first 1+1 result',
      m(s.first),
      m(j.first),
      join(has && 'reference: start_new_kernel(), then the first execute'),
      { unit: msAt(0) },
    ),
    row(
      `warm kernel: new session → first 1+1 result, median of ${o.warmRuns}`,
      m(s.warm),
      m(j.first),
      join(
        'the manager’s spare was up',
        has && 'jupyter_client keeps none, so the reference is its cold first result',
      ),
      { unit: msAt(1) },
    ),
    row(
      `1+1 round trip, median of ${s.rt.length}`,
      m(s.rt),
      m(j.rt),
      join(
        has && `reference until execute_reply and idle (its execute_result came at ${ms(m(j.rtAlt), 3)})`,
        `p95 ${vs(ms(percentile(s.rt, 95)), ms(percentile(j.rt, 95)), '')}`.trim(),
        `bare KernelProcess ${ms(m(s.rtAlt), 3)}`,
      ),
      { unit: msAt(3), wanted: 10 },
    ),
    ...outputRows,
    row(
      `input() round trip, median of ${s.input.length}`,
      m(s.input),
      m(j.input),
      'request received → answer sent → the next request received',
      { unit: msAt(3) },
    ),
    row(
      `interrupt → KeyboardInterrupt result, median of ${o.interrupts}`,
      m(s.interrupt),
      m(j.interrupt),
      join(
        'time.sleep(100), interrupted once its first output arrived',
        vs(list(s.interrupt, 1), list(j.interrupt, 1), 'ms'),
      ),
      { unit: msAt(1) },
    ),
  ];
}

/**
 * (e) Cairn's kernels through their manager, stdlib and IPython driver, against a stock ipykernel driven
 * by jupyter_client in the same run. Every kernel it starts is stopped before it returns.
 */
export async function benchKernels(o: KernelBenchOptions, log: (what: string) => void): Promise<Row[]> {
  const dir = tempDir('kernels');
  const env: NodeJS.ProcessEnv = {
    ...childEnv(process.env),
    // The same fresh IPython and Jupyter settings for both sides: nobody's profile or kernelspecs.
    IPYTHONDIR: path.join(dir, 'ipython'),
    JUPYTER_CONFIG_DIR: path.join(dir, 'jupyter', 'config'),
    JUPYTER_DATA_DIR: path.join(dir, 'jupyter', 'data'),
    JUPYTER_RUNTIME_DIR: path.join(dir, 'jupyter', 'runtime'),
  };
  const flavours = FLAVOURS.filter((f) => f.pythonPath === null || existsSync(f.pythonPath));
  const missing = referenceMissing(env);
  if (missing) {
    process.stdout.write(
      `\n(e) kernels: the ipykernel reference is skipped: ${missing}. Install the Debian packages: sudo apt-get install ${APT_PACKAGES}\n`,
    );
  }
  const c: Context = {
    o,
    dir,
    env,
    flavours,
    pythons: new Map(),
    ref: null,
    managers: [],
    raws: [],
    cairn: new Map(flavours.map((f) => [f.key, figures(o.outputs)])),
    jupyter: figures(o.outputs),
  };
  let versions = '';
  try {
    for (const f of flavours) {
      const python = await resolvePython({ projectRoot: dir, configuredPath: f.pythonPath, env });
      c.pythons.set(f.key, { command: python.command, args: python.args });
    }
    if (!missing) ({ ref: c.ref, versions } = await JupyterReference.start(env, dir));
    log('(e) kernels: cold and warm starts');
    await measureStarts(c);
    log('(e) kernels: round trips, throughput, input, interrupt');
    await measureRunning(c);
    return flavours.flatMap((f) => rowsOf(c, f, versions));
  } finally {
    await Promise.all([
      c.ref?.close(),
      ...c.managers.map((manager) => manager.shutdownAll()),
      ...c.raws.map((raw) => raw.shutdown(1_000)),
    ]);
  }
}
