import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../sidecar/test/support/harness';
import {
  defaultBackoffMs,
  SidecarFailure,
  type SidecarState,
  SidecarSupervisor,
  type SidecarSupervisorOptions,
} from '../../src/sidecar/sidecar-supervisor';
import { type FakeChild, FakeLauncher } from './fake-launcher';

const ENTRY = '/Applications/Cairn.app/Contents/Resources/app.asar/dist/sidecar/cairn.mjs';
const DATA_DIR = '/Users/someone/.cairn';

interface Rig {
  supervisor: SidecarSupervisor;
  launcher: FakeLauncher;
  states: SidecarState[];
  killedTrees: number[];
  diagnosticsDir: string;
}

const dirs: string[] = [];

function rig(overrides: Partial<SidecarSupervisorOptions> = {}): Rig {
  const launcher = new FakeLauncher();
  const killedTrees: number[] = [];
  const diagnosticsDir = tempDir('sidecar-diag');
  dirs.push(diagnosticsDir);
  const supervisor = new SidecarSupervisor({
    launcher,
    entry: ENTRY,
    dataDir: DATA_DIR,
    env: async () => ({ PATH: '/usr/bin:/bin', HOME: '/Users/someone' }),
    execArgv: ['--use-system-ca'],
    readyTimeoutMs: 1000,
    stopGraceMs: 500,
    maxCrashes: 3,
    crashWindowMs: 60_000,
    diagnostics: {
      dir: diagnosticsDir,
      appVersion: '9.8.7',
      versions: { electron: '41.7.1', node: '24.11.1', chrome: '146.0.1' },
    },
    killTree: async (pid) => {
      killedTrees.push(pid);
    },
    ...overrides,
  });
  const states: SidecarState[] = [];
  supervisor.onStateChange((state) => states.push(state));
  return { supervisor, launcher, states, killedTrees, diagnosticsDir };
}

/** A rig whose first sidecar has started and said it is ready. */
async function runningRig(): Promise<Rig & { child: FakeChild }> {
  const started = rig();
  started.supervisor.start();
  const child = await started.launcher.launched(1);
  child.ready(40001);
  await started.supervisor.backend();
  return { ...started, child };
}

/** Whether a promise has settled, after letting pending microtasks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

function diagnosticsFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => /^sidecar-failure-.*\.txt$/.test(name));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('SidecarSupervisor with a fake launcher', () => {
  it('launches cairn serve with no token in its environment, hands one over on hello, and gives backend() once ready', async () => {
    const { supervisor, launcher, states } = rig({
      env: async () => ({
        PATH: '/usr/bin',
        ELECTRON_RUN_AS_NODE: '1',
        CAIRN_TOKEN: 'inherited-token',
        CAIRN_BACKEND_TOKEN: 'remote-backend-secret',
      }),
    });
    const backend = supervisor.backend();
    supervisor.start();
    const child = await launcher.launched(1);

    expect(child.spec.entry).toBe(ENTRY);
    expect(child.spec.args).toEqual(['serve', '--host', '127.0.0.1', '--port', '0', '--parent-ipc']);
    expect(child.spec.execArgv).toEqual(['--use-system-ca']);
    // Any process of the same user can read the environment (/proc/<pid>/environ): no token goes there.
    expect(Object.keys(child.spec.env).sort()).toEqual(['CAIRN_DATA_DIR', 'NO_PROXY', 'PATH', 'no_proxy']);
    expect(child.spec.env.CAIRN_DATA_DIR).toBe(DATA_DIR);
    expect(child.spec.env.NO_PROXY).toContain('127.0.0.1');
    expect(child.posted).toEqual([]);
    expect(supervisor.state).toEqual({ kind: 'starting' });

    // The sidecar listens on its channel and asks; the answer is the launch's token.
    child.hello();
    expect(child.posted).toEqual([{ type: 'configure', token: child.token }]);
    expect(child.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(child.token).not.toBe('inherited-token');
    expect(JSON.stringify(child.spec)).not.toContain(child.token);
    expect(await settled(backend)).toBe(false);

    child.ready(43117);
    await expect(backend).resolves.toEqual({ url: 'http://127.0.0.1:43117', token: child.token });
    await expect(supervisor.backend()).resolves.toEqual({
      url: 'http://127.0.0.1:43117',
      token: child.token,
    });
    expect(supervisor.state).toEqual({ kind: 'ready', url: 'http://127.0.0.1:43117', port: 43117 });
    expect(states.map((state) => state.kind)).toEqual(['starting', 'ready']);
    expect(JSON.stringify(states)).not.toContain(child.token);
  });

  it('ignores messages that are not a valid ready message', async () => {
    const { supervisor, launcher } = rig();
    supervisor.start();
    const child = await launcher.launched(1);
    const backend = supervisor.backend();
    for (const garbage of [
      null,
      'ready',
      42,
      { type: 'ready' },
      { type: 'ready', port: 70_000, version: '1', pid: 1 },
      { type: 'ready', port: '8080', version: '1', pid: 1 },
      { type: 'hello' },
      { type: 'welcome', port: 8080, version: '1', pid: 1 },
    ]) {
      child.send(garbage);
    }
    expect(await settled(backend)).toBe(false);
    expect(supervisor.state).toEqual({ kind: 'starting' });
    expect(child.posted).toEqual([]);

    child.ready(50001);
    await expect(backend).resolves.toEqual({ url: 'http://127.0.0.1:50001', token: child.token });
  });

  it('answers hello once, and takes no ready from a sidecar that never asked for its token', async () => {
    const { supervisor, launcher } = rig();
    supervisor.start();
    const child = await launcher.launched(1);
    const backend = supervisor.backend();

    // Serving with a token of its own (an older sidecar reading its environment): the UI could not use it.
    child.send({ type: 'ready', port: 50001, version: '0.0.9', pid: child.pid });
    expect(await settled(backend)).toBe(false);
    expect(supervisor.state).toEqual({ kind: 'starting' });

    child.hello();
    child.hello();
    expect(child.posted).toEqual([{ type: 'configure', token: child.token }]);
    child.ready(50002);
    await expect(backend).resolves.toEqual({ url: 'http://127.0.0.1:50002', token: child.token });
  });

  it('answers a hello that comes after stop() with shutdown, not with a token', async () => {
    const { supervisor, launcher, killedTrees } = rig();
    supervisor.start();
    const child = await launcher.launched(1);

    const stopping = supervisor.stop();
    // Sent before the sidecar listened, this one may be lost; so the hello is answered with another.
    expect(child.posted).toEqual([{ type: 'shutdown' }]);
    child.hello();
    expect(child.posted).toEqual([{ type: 'shutdown' }, { type: 'shutdown' }]);
    child.send({ type: 'stopped' });
    await vi.advanceTimersByTimeAsync(0);
    await stopping;
    expect(killedTrees).toEqual([child.pid]);
    expect(supervisor.state).toEqual({ kind: 'stopped' });
  });

  it('on a ready timeout writes diagnostics without the token, kills the child, and gives up at once', async () => {
    const { supervisor, launcher, killedTrees, diagnosticsDir } = rig();
    const pending = supervisor.backend();
    pending.catch(() => {});
    supervisor.start();
    const child = await launcher.launched(1);
    child.hello();
    child.print('Cairn http://127.0.0.1:1 is ready. Open in a browser:\n', 'stdout');
    child.print(`http://127.0.0.1:1/#token=${child.token}\n`, 'stdout');
    child.print('Error: SQLITE_CANTOPEN: unable to open database file\n', 'stderr');

    await vi.advanceTimersByTimeAsync(999);
    expect(diagnosticsFiles(diagnosticsDir)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);

    expect(killedTrees).toEqual([child.pid]);
    expect(child.killCount).toBe(1);
    // A hung start is reported now, not after two more full timeouts on an empty window.
    const state = supervisor.state;
    if (state.kind !== 'failed') throw new Error(`expected failed, got ${state.kind}`);
    expect(state.message).toContain('did not report ready within 1 s');
    await expect(pending).rejects.toMatchObject({
      code: 'sidecar_failed',
      diagnosticsFile: state.diagnosticsFile,
    });
    const files = diagnosticsFiles(diagnosticsDir);
    expect(files).toHaveLength(1);
    const text = fs.readFileSync(path.join(diagnosticsDir, files[0]!), 'utf8');
    expect(text).toContain('did not report ready within 1 s');
    expect(text).toContain('SQLITE_CANTOPEN: unable to open database file');
    expect(text).toContain(ENTRY);
    expect(text).toContain(DATA_DIR);
    expect(text).toContain('41.7.1');
    expect(text).toContain('9.8.7');
    expect(text).not.toContain(child.token);
    expect(text).toContain('#token=[redacted]');
    expect(path.join(diagnosticsDir, files[0]!)).toBe(state.diagnosticsFile);

    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(1);
  });

  it('fails after maxCrashes exits before ready: state failed, backend() rejects, no more launches', async () => {
    const { supervisor, launcher, diagnosticsDir } = rig();
    const pending = supervisor.backend();
    pending.catch(() => {});
    supervisor.start();
    const tokens: string[] = [];
    for (let n = 1; n <= 3; n += 1) {
      const child = await launcher.launched(n);
      child.hello();
      tokens.push(child.token);
      child.print(`attempt ${n}: token is ${child.token}; waiting on a lock\n`);
      child.exit(1);
      if (n < 3) await vi.advanceTimersByTimeAsync(defaultBackoffMs(n));
    }

    const state = supervisor.state;
    if (state.kind !== 'failed') throw new Error(`expected failed, got ${state.kind}`);
    expect(state.message).toContain('3 failures');
    expect(state.stderrTail).toContain('attempt 3: token is [redacted]; waiting on a lock');
    expect(state.diagnosticsFile).not.toBeNull();
    const report = fs.readFileSync(state.diagnosticsFile!, 'utf8');
    expect(report).toContain('attempt 3');
    for (const token of tokens) {
      expect(report).not.toContain(token);
      expect(state.stderrTail).not.toContain(token);
    }
    // One report, at the give-up: the restarts before it were the plan working.
    expect(diagnosticsFiles(diagnosticsDir)).toHaveLength(1);

    await expect(pending).rejects.toBeInstanceOf(SidecarFailure);
    await expect(supervisor.backend()).rejects.toMatchObject({
      code: 'sidecar_failed',
      diagnosticsFile: state.diagnosticsFile,
    });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(3);
  });

  it('restarts a sidecar that dies after ready, after the backoff, with a new token', async () => {
    const { supervisor, launcher } = rig();
    supervisor.start();
    const first = await launcher.launched(1);
    first.ready(40001);
    expect(await supervisor.backend()).toEqual({ url: 'http://127.0.0.1:40001', token: first.token });

    first.exit(1);
    expect(supervisor.state).toEqual({ kind: 'restarting', attempt: 1, delayMs: 500, lastExitCode: 1 });
    const waiting = supervisor.backend();
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(launcher.launches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const second = await launcher.launched(2);
    expect(supervisor.state).toEqual({ kind: 'starting' });
    second.hello();
    expect(second.token).not.toBe(first.token);

    second.ready(40002);
    await expect(waiting).resolves.toEqual({ url: 'http://127.0.0.1:40002', token: second.token });

    // The second failure within the window waits twice as long.
    second.exit(null);
    expect(supervisor.state).toEqual({ kind: 'restarting', attempt: 2, delayMs: 1000, lastExitCode: null });
    await vi.advanceTimersByTimeAsync(999);
    expect(launcher.launches).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(launcher.launches).toHaveLength(3);
  });

  it('gives up after repeated crashes and launches nothing more', async () => {
    const { supervisor, launcher, diagnosticsDir } = rig();
    supervisor.start();
    for (let n = 1; n <= 3; n += 1) {
      const child = await launcher.launched(n);
      child.print(`fatal: crash number ${n}\n`);
      child.exit(7);
      if (n < 3) await vi.advanceTimersByTimeAsync(defaultBackoffMs(n));
    }
    const state = supervisor.state;
    if (state.kind !== 'failed') throw new Error(`expected failed, got ${state.kind}`);
    expect(state.message).toContain('exited (code 7) before it was ready');
    expect(diagnosticsFiles(diagnosticsDir)).toHaveLength(1);
    const report = fs.readFileSync(state.diagnosticsFile!, 'utf8');
    expect(report).toMatch(/Exit code:\s+7/);
    expect(report).toContain('fatal: crash number 3');

    await expect(supervisor.backend()).rejects.toThrow(/stopped restarting it after 3 failures/);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(3);
  });

  it('counts only the failures within the crash window', async () => {
    const { supervisor, launcher } = rig({ maxCrashes: 2, crashWindowMs: 10_000 });
    supervisor.start();
    const first = await launcher.launched(1);
    first.ready(40001);
    first.exit(1);
    await vi.advanceTimersByTimeAsync(500);
    const second = await launcher.launched(2);
    second.ready(40002);
    await vi.advanceTimersByTimeAsync(20_000);
    second.exit(1);
    // The first failure is older than the window: this is attempt 1 again, not the second strike.
    expect(supervisor.state).toEqual({ kind: 'restarting', attempt: 1, delayMs: 500, lastExitCode: 1 });

    await vi.advanceTimersByTimeAsync(500);
    const third = await launcher.launched(3);
    third.exit(1);
    expect(supervisor.state.kind).toBe('failed');
  });

  it('stops gracefully: posts shutdown, and a sidecar that exits in time is not killed', async () => {
    const { supervisor, launcher, killedTrees, child } = await runningRig();

    const stopping = supervisor.stop();
    expect(supervisor.stop()).toBe(stopping);
    expect(child.posted).toEqual([{ type: 'configure', token: child.token }, { type: 'shutdown' }]);
    child.exit(0);
    await stopping;
    expect(killedTrees).toEqual([]);
    expect(child.killCount).toBe(0);
    expect(supervisor.state).toEqual({ kind: 'stopped' });
    await expect(supervisor.backend()).rejects.toMatchObject({ code: 'sidecar_stopped' });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(1);
  });

  it('kills the process tree as soon as the sidecar answers that it stopped', async () => {
    const { supervisor, launcher, killedTrees, child } = await runningRig();

    const stopping = supervisor.stop();
    expect(child.posted).toEqual([{ type: 'configure', token: child.token }, { type: 'shutdown' }]);
    await vi.advanceTimersByTimeAsync(100);
    expect(killedTrees).toEqual([]);
    // Still alive, database closed: the host now ends it with whatever its tools left running.
    child.send({ type: 'stopped' });
    await vi.advanceTimersByTimeAsync(0);
    expect(killedTrees).toEqual([child.pid]);
    expect(child.killCount).toBe(1);
    await stopping;
    expect(supervisor.state).toEqual({ kind: 'stopped' });
    expect(launcher.launches).toHaveLength(1);
  });

  it('kills the process tree of a sidecar that does not stop within the grace period', async () => {
    const { supervisor, launcher, killedTrees, child } = await runningRig();

    const stopping = supervisor.stop();
    await vi.advanceTimersByTimeAsync(499);
    expect(killedTrees).toEqual([]);
    expect(await settled(stopping)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(killedTrees).toEqual([child.pid]);
    expect(child.killCount).toBe(1);
    await stopping;
    expect(child.posted).toEqual([{ type: 'configure', token: child.token }, { type: 'shutdown' }]);
    expect(supervisor.state).toEqual({ kind: 'stopped' });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(1);
  });

  it('uses the pid from the ready message when the child does not know its own', async () => {
    const { supervisor, launcher, killedTrees } = rig();
    launcher.launch = (spec) => {
      const child = FakeLauncher.prototype.launch.call(launcher, spec);
      Object.defineProperty(child, 'pid', { value: undefined });
      return child;
    };
    supervisor.start();
    const child = await launcher.launched(1);
    child.hello();
    child.send({ type: 'ready', port: 40001, version: '0.1.0', pid: 98765 });
    await supervisor.backend();
    const stopping = supervisor.stop();
    await vi.advanceTimersByTimeAsync(500);
    await stopping;
    expect(killedTrees).toEqual([98765]);
  });

  it('launches nothing when stopped during the backoff', async () => {
    const { supervisor, launcher } = rig();
    supervisor.start();
    const child = await launcher.launched(1);
    child.ready(40001);
    child.exit(1);
    expect(supervisor.state.kind).toBe('restarting');
    const waiting = supervisor.backend();
    waiting.catch(() => {});

    await supervisor.stop();
    await expect(waiting).rejects.toMatchObject({ code: 'sidecar_stopped' });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(1);
    expect(supervisor.state).toEqual({ kind: 'stopped' });
  });

  it('launches nothing when stopped while the environment is still being read', async () => {
    let provide: (env: Record<string, string>) => void = () => {};
    const { supervisor, launcher } = rig({
      env: () =>
        new Promise((resolve) => {
          provide = resolve;
        }),
    });
    supervisor.start();
    await supervisor.stop();
    provide({ PATH: '/usr/bin' });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(launcher.launches).toHaveLength(0);
    expect(supervisor.state).toEqual({ kind: 'stopped' });
  });

  it('reads the base environment once across restarts', async () => {
    let calls = 0;
    const { supervisor, launcher } = rig({
      env: async () => {
        calls += 1;
        return { PATH: '/usr/bin' };
      },
    });
    supervisor.start();
    (await launcher.launched(1)).exit(1);
    await vi.advanceTimersByTimeAsync(500);
    await launcher.launched(2);
    expect(calls).toBe(1);
  });

  it('counts a launcher that throws as a failed start, and fails when the environment cannot be read', async () => {
    const { supervisor, launcher } = rig();
    launcher.failNext = new Error('spawn /no/such/node ENOENT');
    supervisor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(supervisor.state).toEqual({ kind: 'restarting', attempt: 1, delayMs: 500, lastExitCode: null });
    await vi.advanceTimersByTimeAsync(500);
    expect(launcher.launches).toHaveLength(1);

    const broken = rig({ env: () => Promise.reject(new Error('login shell exploded')) });
    broken.supervisor.start();
    await expect(broken.supervisor.backend()).rejects.toThrow(/environment: login shell exploded/);
    expect(broken.supervisor.state.kind).toBe('failed');
    expect(broken.launcher.launches).toHaveLength(0);
  });

  it('ignores late news from a launch it already replaced', async () => {
    const { supervisor, launcher } = rig();
    supervisor.start();
    const first: FakeChild = await launcher.launched(1);
    first.exit(1);
    await vi.advanceTimersByTimeAsync(500);
    const second = await launcher.launched(2);
    // A message the dead launch had in flight: it must not become the backend.
    first.ready(40001);
    expect(supervisor.state).toEqual({ kind: 'starting' });
    second.ready(40002);
    await expect(supervisor.backend()).resolves.toEqual({
      url: 'http://127.0.0.1:40002',
      token: second.token,
    });
  });
});

describe('defaultBackoffMs', () => {
  it('starts at 500 ms, doubles, and stops at 8 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(defaultBackoffMs)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
});
