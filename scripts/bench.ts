// `npm run bench`: measures the sidecar against references taken in the same run, and prints a table.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startHarness } from '../sidecar/test/support/harness';
import { startModelServer } from '../sidecar/test/support/model-server';
import { type BranchBenchOptions, benchBranch } from './bench/branch';
import { benchCodeSteps, type CodeStepBenchOptions } from './bench/code-steps';
import { benchContext, type ContextBenchOptions } from './bench/context';
import { benchForks, type ForkBenchOptions } from './bench/forks';
import { benchKernels, type KernelBenchOptions } from './bench/kernels';
import { benchSearch, type SearchBenchOptions } from './bench/search';
import { benchSnapshots, type SnapshotBenchOptions } from './bench/snapshots';
import { benchStartup } from './bench/startup';
import { benchStreaming } from './bench/streaming';
import { benchToolRuntime, type ToolRuntimeBenchOptions } from './bench/tool-runtime';
import { benchTurnPage } from './bench/turn-page';
import { benchUi } from './bench/ui';
import { printTable, type Row, removeDirs } from './bench/util';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const KERNELS: KernelBenchOptions = {
  coldRuns: 5,
  warmRuns: 5,
  roundTrips: 300,
  outputs: [
    { lines: 20 * 1024, width: 1024 },
    { lines: 320, width: 64 * 1024 },
  ],
  rounds: 5,
  inputs: 100,
  interrupts: 5,
};
const CONTEXT: ContextBenchOptions = { sessionTokens: 200_000, runs: 7, warmup: 2, rounds: 40 };
const TOOLS: ToolRuntimeBenchOptions = { calls: 1000, warmup: 50 };
const FORKS: ForkBenchOptions = { runs: 30, warmup: 5, historyTurns: 200 };
const CODE_STEPS: CodeStepBenchOptions = { steps: 50, warmup: 5 };
const SEARCH: SearchBenchOptions = { messages: 100_000, sessions: 100, samples: 31, warmup: 3 };
const BRANCH: BranchBenchOptions = { turns: Number(process.env.BENCH_TURNS ?? 10_000), runs: 5, warmup: 1 };
const SNAPSHOTS: SnapshotBenchOptions = {
  files: 10_000,
  folders: 200,
  nodeModules: 5_000,
  runs: 15,
  warmup: 2,
};

async function main(): Promise<void> {
  const began = performance.now();
  const log = (what: string) =>
    process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(1)} s] ${what}\n`);
  // BENCH_ONLY=ui runs section (d) alone, BENCH_ONLY=kernels section (e), BENCH_ONLY=context section (f), BENCH_ONLY=tools section (g),
  // BENCH_ONLY=forks section (h), BENCH_ONLY=code section (i), BENCH_ONLY=search section (j),
  // BENCH_ONLY=branch section (k), BENCH_ONLY=snapshots section (l).
  const alone: Record<string, () => Promise<Row[]>> = {
    ui: benchUi,
    kernels: () => benchKernels(KERNELS, log),
    context: () => benchContext(CONTEXT, log),
    tools: async () => {
      const model = await startModelServer();
      try {
        return await benchToolRuntime(model, TOOLS, log);
      } finally {
        await model.close();
      }
    },
    forks: async () => {
      const model = await startModelServer();
      try {
        return await benchForks(model, FORKS, log);
      } finally {
        await model.close();
      }
    },
    branch: () => benchBranch(BRANCH, log),
    code: async () => {
      const model = await startModelServer();
      try {
        return await benchCodeSteps(model, CODE_STEPS, log);
      } finally {
        await model.close();
      }
    },
    search: () => benchSearch(SEARCH, log),
    snapshots: () => benchSnapshots(SNAPSHOTS, log),
  };
  const only = process.env.BENCH_ONLY;
  if (only) {
    const section = alone[only];
    if (!section)
      throw new Error(`BENCH_ONLY=${only}: the sections that run alone are ${Object.keys(alone).join(', ')}`);
    try {
      report(await section(), began);
    } finally {
      removeDirs();
    }
    return;
  }
  const model = await startModelServer();
  const rows: Row[] = [];
  try {
    log('(a) start to ready');
    rows.push(...(await benchStartup(model, repoRoot, 5)));

    log('(b) streaming');
    const h = await startHarness({ model });
    try {
      rows.push(
        ...(await benchStreaming(h, {
          rounds: 5,
          blocks: 250,
          pacedRounds: 3,
          pacedBlocks: 60,
          pacedDelayMs: 1,
        })),
      );
    } finally {
      await h.close();
      removeDirs([h.dataDir, h.projectDir]);
    }

    log('(c) turn page');
    rows.push(...(await benchTurnPage(model, 10_000, 20)));

    log('(d) renderer in Chromium');
    rows.push(...(await benchUi()));

    log('(e) Python kernels');
    rows.push(...(await benchKernels(KERNELS, log)));

    log('(f) context');
    rows.push(...(await benchContext(CONTEXT, log)));

    log('(g) tool runtime');
    rows.push(...(await benchToolRuntime(model, TOOLS, log)));

    log('(h) forks');
    rows.push(...(await benchForks(model, FORKS, log)));

    log('(i) code as action');
    rows.push(...(await benchCodeSteps(model, CODE_STEPS, log)));

    log('(j) search');
    rows.push(...(await benchSearch(SEARCH, log)));
    log('(k) branching');
    rows.push(...(await benchBranch(BRANCH, log)));
    log('(l) file snapshots');
    rows.push(...(await benchSnapshots(SNAPSHOTS, log)));
  } finally {
    await model.close();
    removeDirs();
  }
  report(rows, began);
}

function report(rows: Row[], began: number): void {
  const cpus = os.cpus();
  process.stdout.write(
    `\nCairn bench — node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, ${os.platform()}\n\n`,
  );
  printTable(rows);
  process.stdout.write(`\ntotal ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
