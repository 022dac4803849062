import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { testEnv } from '../../sidecar/test/support/harness';
import type { ModelServer } from '../../sidecar/test/support/model-server';
import { median, ms, type Row, ratio, tempDir } from './util';

const READY_TIMEOUT_MS = 30_000;
const TOKEN = 'bench-token-0123456789-abcdefghijkl';

/** Spawns a process and resolves with the time until its stdout matches `ready`; then stops it. */
async function timeToReady(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not ready after ${READY_TIMEOUT_MS} ms: ${stdout}${stderr}`)),
        READY_TIMEOUT_MS,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (ready.test(stdout)) {
          clearTimeout(timer);
          resolve(performance.now() - start);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (!ready.test(stdout))
          reject(new Error(`exited (${code ?? signal}) before ready: ${stdout}${stderr}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  } finally {
    await stop(child);
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * (a) `cairn serve` from spawn to its ready line, against a Node process that prints a line at once:
 * from the TypeScript sources (tsx, as `npm run serve` runs it) and from the bundle the desktop app ships.
 */
export async function benchStartup(model: ModelServer, repoRoot: string, runs: number): Promise<Row[]> {
  const env = testEnv(model, { CAIRN_TOKEN: TOKEN });
  const serve = (entry: string) => () =>
    timeToReady(
      [entry, 'serve', '--port', '0', '--data-dir', tempDir('serve')],
      /Cairn http:\/\/127\.0\.0\.1:\d+ is ready/,
      env,
      repoRoot,
    );
  const subjects = [
    { what: 'cairn serve --port 0 → ready line (sources via tsx)', run: serve('sidecar/bin/cairn.mjs') },
    { what: 'the same from the bundle (dist/sidecar/cairn.mjs)', run: serve('dist/sidecar/cairn.mjs') },
  ];
  const reference = () => timeToReady(['-e', "process.stdout.write('ready\\n')"], /ready\n/, env, repoRoot);

  // One of each first, unmeasured: it warms the file cache and the tsx transform cache.
  await reference();
  for (const subject of subjects) await subject.run();
  const times = subjects.map(() => [] as number[]);
  const baseline: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(await reference());
    for (const [index, subject] of subjects.entries()) times[index]!.push(await subject.run());
  }
  const r = median(baseline);
  return subjects.map((subject, index) => {
    const s = median(times[index]!);
    return {
      section: `(a) start to ready, median of ${runs} (fresh data dir each run)`,
      what: subject.what,
      value: ms(s, 0),
      reference: ms(r, 0),
      ratio: ratio(s, r),
      note: `reference: node -e "process.stdout.write('ready\\n')"; runs ${times[index]!.map((v) => v.toFixed(0)).join('/')} ms`,
    };
  });
}
