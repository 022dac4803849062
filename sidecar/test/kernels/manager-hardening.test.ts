import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STREAM_CHARS, STREAM_LIMIT_NOTE } from '../../src/kernels/cell-run';
import { KernelManager } from '../../src/kernels/kernel-manager';
import type { KernelLimits } from '../../src/kernels/kernel-types';
import type { SessionKernels } from '../../src/kernels/session-kernels';
import { makeTempDir, removeDir, waitFor } from '../tools/tool-context';
import {
  closeTestSessions,
  DRIVER_PATH,
  eventLog,
  IPYTHON,
  kernelEnv,
  openTestSession,
  recordingLogger,
  STDLIB,
} from './kernel-support';

/** A session whose listener and logger the test controls (kernel-support's own fixes both). */
interface OwnSession {
  manager: KernelManager;
  session: SessionKernels;
  events: ReturnType<typeof eventLog>;
  logger: ReturnType<typeof recordingLogger>;
  dataDir: string;
  projectRoot: string;
  artifactsDir: string;
  kernelsDir: string;
}

const own: OwnSession[] = [];

async function openOwnSession(opts: {
  pythonPath: string | null;
  ipython: boolean;
  warm?: boolean;
  limits?: Partial<KernelLimits>;
  /** Runs before the project's folder is used, e.g. to put a `.venv` there. */
  prepare?: (projectRoot: string, dataDir: string) => Promise<void>;
}): Promise<OwnSession> {
  const dataDir = await makeTempDir('cairn-kernels-hard-');
  const projectRoot = path.join(dataDir, 'project');
  await fs.mkdir(projectRoot);
  await opts.prepare?.(projectRoot, dataDir);
  const kernelsDir = path.join(dataDir, 'sessions', 'ses_h', 'kernels');
  const artifactsDir = path.join(dataDir, 'artifacts');
  const logger = recordingLogger();
  const manager = new KernelManager({
    env: kernelEnv,
    driverPath: DRIVER_PATH,
    ipython: opts.ipython,
    warm: opts.warm ?? false,
    logger,
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  const events = eventLog();
  const session = manager.openSession('ses_h', {
    projectRoot,
    pythonPath: opts.pythonPath,
    kernelsDir,
    artifactsDir,
    onEvent: (event) => events.listener(event),
  });
  const opened = { manager, session, events, logger, dataDir, projectRoot, artifactsDir, kernelsDir };
  own.push(opened);
  return opened;
}

afterEach(async () => {
  await closeTestSessions();
  await Promise.all(
    own.splice(0).map(async (s) => {
      await s.manager.shutdownAll();
      await removeDir(s.dataDir);
    }),
  );
});

/** Blocks this thread (and so Node's event loop) for `ms`: a timer and a pipe read fall due together. */
function blockEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('live output limit', () => {
  it('sends at most MAX_STREAM_CHARS of output as events, then one note; the result keeps its ends', async () => {
    const t = await openTestSession(STDLIB);
    const lines = Math.ceil((MAX_STREAM_CHARS * 3) / 64);
    const total = lines * 64;
    // Both streams, so the limit is per execution and not per stream.
    const code = `import sys\nfor i in range(${lines}):\n    print(str(i).rjust(63, '.'), file=sys.stderr if i % 2 else sys.stdout)`;
    const result = await t.session.kernel().execute(code);
    expect(result.success).toBe(true);

    const streams = t.events.ofType('kernel.stream');
    const sent = streams.reduce((n, e) => n + e.text.length, 0);
    expect(sent).toBeLessThanOrEqual(MAX_STREAM_CHARS + STREAM_LIMIT_NOTE.length);
    expect(sent).toBeGreaterThanOrEqual(MAX_STREAM_CHARS - 64);
    expect(streams.filter((e) => e.text === STREAM_LIMIT_NOTE)).toHaveLength(1);
    expect(streams.at(-1)!.text).toBe(STREAM_LIMIT_NOTE);

    // The result still counts everything: each stream's omitted part is what its cap could not keep.
    const omitted = (text: string) =>
      Number(/\[\.\.\. (\d+) characters of output omitted \.\.\.\]/.exec(text)?.[1] ?? 0);
    expect(omitted(result.stdout) + omitted(result.stderr)).toBe(total - 2 * MAX_STREAM_CHARS);
    const audit = (await fs.readFile(path.join(t.kernelsDir, 'default', 'executions.jsonl'), 'utf8')).trim();
    expect(JSON.parse(audit).stdout).toContain('characters omitted');

    // The next execution has its own allowance.
    await t.session.kernel().execute("print('again')");
    expect(t.events.ofType('kernel.stream').at(-1)!.text).toBe('again\n');
  });
});

describe.each([
  { ...IPYTHON, label: 'the IPython driver' },
  { ...IPYTHON, ipython: false, label: 'the stdlib driver' },
])('outputs that cannot be saved, with $label', (flavour) => {
  it.skipIf(!existsSync('/usr/bin/python3'))(
    'still give a result with a note, log why, and the kernel keeps working',
    async () => {
      const t = await openOwnSession({ pythonPath: flavour.pythonPath, ipython: flavour.ipython });
      // A file where the folder should be: fails as ENOSPC or EACCES would, also when tests run as root.
      await fs.writeFile(t.artifactsDir, 'not a folder');
      const code =
        'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()\n' +
        "import base64\nclass Pic:\n    def _repr_png_(self):\n        return base64.b64decode('iVBORw0KGgo=')\n" +
        "    def __repr__(self):\n        return 'Pic()'\nPic()";
      const result = await t.session.kernel().execute(code);

      expect(result.success).toBe(true);
      expect(result.returnValue?.artifacts).toEqual([]);
      expect(result.returnValue?.text).toMatch(/^Pic\(\)\n\[Cairn could not save the image\/png output/);
      expect(result.displays).toHaveLength(1);
      expect(result.displays[0]!.artifacts).toEqual([]);
      expect(result.displays[0]!.text).toContain('could not save the image/png output');
      expect(t.events.ofType('kernel.result')).toHaveLength(1);
      expect(
        t.logger.lines.some((l) => l.level === 'warn' && l.msg === 'could not save a kernel output'),
      ).toBe(true);
      const audit = await fs.readFile(path.join(t.kernelsDir, 'default', 'executions.jsonl'), 'utf8');
      expect(audit.trim().split('\n')).toHaveLength(1);

      const next = await t.session.kernel().execute('6 * 7');
      expect(next.returnValue?.text).toBe('42');
      expect(t.events.ofType('kernel.died')).toEqual([]);
    },
  );
});

describe('how a cell that lost its process is judged', () => {
  it('reports a restart that killed the process the cell had just taken as KernelRestarted', async () => {
    const t = await openOwnSession({ pythonPath: STDLIB.pythonPath, ipython: false });
    const kernel = t.session.kernel();
    expect((await kernel.execute('1')).success).toBe(true);

    // The restart comes after the cell took the live process and before it ran: the window where the cell
    // is not yet registered as running, so nothing told it a restart was coming.
    let restarting: Promise<void> | null = null;
    t.events.events.length = 0;
    const original = t.events.listener;
    t.events.listener = (event) => {
      original(event);
      if (event.type === 'kernel.execution_started' && !restarting) {
        queueMicrotask(() => {
          restarting = kernel.restart();
        });
      }
    };
    const raced = await kernel.execute('2');
    await restarting;

    expect(raced.success).toBe(false);
    expect(raced.error?.type).toBe('KernelRestarted');
    expect(t.events.ofType('kernel.died')).toEqual([]);
    expect((await kernel.execute('3')).returnValue?.text).toBe('3');
  });

  it('restarts and marks state lost when the grace kill races a late result', async () => {
    const t = await openOwnSession({
      pythonPath: STDLIB.pythonPath,
      ipython: false,
      limits: { interruptGraceMs: 100 },
    });
    const kernel = t.session.kernel();
    const running = kernel.execute(
      "import time\ntry:\n    print('go', flush=True)\n    time.sleep(30)\nexcept KeyboardInterrupt:\n    pass\n'done'",
    );
    await waitFor(() => t.events.ofType('kernel.stream').length > 0);
    // In the check phase (setImmediate), libuv's loop runs the timers next and polls for I/O after them. So
    // while Node is blocked the cell stops and writes its result, and when Node runs again the grace timer
    // kills the kernel before the result is read: the race, made certain.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        kernel.interrupt();
        blockEventLoop(1_500);
        resolve();
      }),
    );
    const result = await running;

    expect(result.success).toBe(false);
    expect(result.error?.type).toBe('KeyboardInterrupt');
    const next = await kernel.execute('1');
    expect(next.stateLost).toMatch(/killed and restarted/);
    expect(t.events.ofType('kernel.started').map((e) => e.reason)).toEqual(['first_use', 'after_limit']);
  });
});

describe('file modes', () => {
  it.skipIf(process.platform === 'win32')(
    'keeps the audit log and saved outputs readable by the owner only',
    async () => {
      const t = await openTestSession(STDLIB);
      const result = await t.session
        .kernel()
        .execute("class H:\n    def _repr_html_(self):\n        return '<i>x</i>'\nH()");
      const html = result.returnValue!.artifacts[0]!;
      const mode = async (file: string) => (await fs.stat(file)).mode & 0o777;
      expect(await mode(html.path)).toBe(0o600);
      expect(await mode(t.artifactsDir)).toBe(0o700);
      expect(await mode(path.join(t.kernelsDir, 'default', 'executions.jsonl'))).toBe(0o600);
      expect(await mode(path.join(t.kernelsDir, 'default'))).toBe(0o700);
    },
  );
});

describe('warming', () => {
  it.skipIf(process.platform === 'win32')(
    "runs none of the project's Python when a session opens; the first use starts cold, then a spare warms",
    async () => {
      let marker = '';
      const t = await openOwnSession({
        pythonPath: null,
        ipython: false,
        warm: true,
        prepare: async (projectRoot, dataDir) => {
          marker = path.join(dataDir, 'venv-python-ran');
          const bin = path.join(projectRoot, '.venv', 'bin');
          await fs.mkdir(bin, { recursive: true });
          // The project's interpreter: notes each run, then is the system's python3.
          await fs.writeFile(
            path.join(bin, 'python3'),
            `#!/bin/sh\necho run >> '${marker}'\nexec python3 "$@"\n`,
            { mode: 0o755 },
          );
        },
      });

      // Opening used to start the resolver (which runs .venv/bin/python3) and a spare at once.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(existsSync(marker)).toBe(false);
      expect(t.manager.warmPids()).toEqual([]);

      expect((await t.session.kernel().execute('1')).success).toBe(true);
      expect(existsSync(marker)).toBe(true);
      expect(t.events.ofType('kernel.started')[0]).toMatchObject({ warm: false, reason: 'first_use' });
      await waitFor(() => t.manager.warmPids().length === 1);
      const [spare] = t.manager.warmPids();
      await t.session.kernel('other').execute('2');
      expect(t.events.ofType('kernel.started')[1]).toMatchObject({ kernel: 'other', warm: true, pid: spare });
    },
  );
});
