import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killPid, processGone } from '../../../sidecar/test/cli/cli-process';
import { tempDir } from '../../../sidecar/test/support/harness';
import { killProcessTree } from '../../src/sidecar/kill-tree';
import { nodeForkLauncher } from '../../src/sidecar/node-fork-launcher';
import type { SidecarChild, SidecarLauncher } from '../../src/sidecar/sidecar-launcher';
import { SidecarSupervisor } from '../../src/sidecar/sidecar-supervisor';
import { waitUntil } from './wait-until';

const TINY_SIDECAR = fileURLToPath(new URL('./fixtures/tiny-sidecar.mjs', import.meta.url));

interface Observed {
  child: SidecarChild;
  messages: unknown[];
  output: { chunk: string; stream: 'stdout' | 'stderr' }[];
  exit: Promise<number | null>;
  text(stream: 'stdout' | 'stderr'): string;
}

const started: SidecarChild[] = [];
const strays: number[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill();
  for (const pid of strays.splice(0)) killPid(pid);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function observe(child: SidecarChild): Observed {
  started.push(child);
  const messages: unknown[] = [];
  const output: Observed['output'] = [];
  child.onMessage((message) => messages.push(message));
  child.onOutput((chunk, stream) => output.push({ chunk, stream }));
  const exit = new Promise<number | null>((resolve) => child.onExit(resolve));
  return {
    child,
    messages,
    output,
    exit,
    text: (stream) =>
      output
        .filter((entry) => entry.stream === stream)
        .map((entry) => entry.chunk)
        .join(''),
  };
}

function launchTiny(mode: string, launcher: SidecarLauncher = nodeForkLauncher(process.execPath)): Observed {
  return observe(
    launcher.launch({
      entry: TINY_SIDECAR,
      args: ['serve', '--port', '0'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        TINY_SIDECAR_MODE: mode,
      },
      execArgv: ['--no-warnings'],
    }),
  );
}

describe('nodeForkLauncher with a real child', () => {
  it('relays messages both ways, output and exit, and delivers shutdown', async () => {
    const tiny = launchTiny('obedient');
    await waitUntil('the child says hello', () => tiny.messages.length > 0);
    tiny.child.postMessage({ type: 'configure', token: 'x'.repeat(43) });
    await waitUntil('the child reports ready', () => tiny.messages.length > 1);
    expect(tiny.messages).toEqual([
      { type: 'hello', version: 'tiny', pid: tiny.child.pid },
      { type: 'ready', port: 45678, version: 'tiny', pid: tiny.child.pid },
    ]);
    expect(tiny.text('stdout')).toContain('tiny sidecar args=["serve","--port","0"]');
    expect(tiny.text('stdout')).toContain('tiny sidecar execArgv=["--no-warnings"]');
    // Exactly the given environment: nothing of the test runner's leaks in.
    expect(tiny.text('stderr')).toContain('tiny sidecar env keys=["PATH","TINY_SIDECAR_MODE"]');
    expect(tiny.text('stderr')).toContain('tiny sidecar token length=43');

    tiny.child.postMessage({ type: 'shutdown' });
    expect(await tiny.exit).toBe(0);
    expect(tiny.text('stdout')).toContain('got message {"type":"shutdown"}');
    expect(tiny.text('stderr')).toContain('shutting down');
    expect(processGone(tiny.child.pid!)).toBe(true);
    // After the exit these are no-ops, not errors.
    tiny.child.postMessage({ type: 'shutdown' });
    tiny.child.kill();
  });

  it('kill() ends the child hard', async () => {
    const tiny = launchTiny('stubborn');
    await waitUntil('the child says hello', () => tiny.messages.length > 0);
    const grandchild = Number(/grandchild pid=(\d+)/.exec(tiny.text('stdout'))?.[1]);
    strays.push(grandchild);
    tiny.child.postMessage({ type: 'shutdown' });
    tiny.child.kill();
    expect(await tiny.exit).toBeNull();
    expect(processGone(tiny.child.pid!)).toBe(true);
  });

  it('reports a Node binary that does not exist as an exit with a reason', async () => {
    const tiny = launchTiny('obedient', nodeForkLauncher('/nonexistent/bin/node'));
    expect(await tiny.exit).toBeNull();
    expect(tiny.text('stderr')).toMatch(/could not start the sidecar: .*ENOENT/);
  });
});

describe('SidecarSupervisor with nodeForkLauncher and real processes', () => {
  /** The real launcher, with each child's output collected so the test can read pids from it. */
  function recordingLauncher(output: string[]): SidecarLauncher {
    const real = nodeForkLauncher(process.execPath);
    return {
      launch(spec) {
        const child = real.launch(spec);
        child.onOutput((chunk) => output.push(chunk));
        started.push(child);
        return child;
      },
    };
  }

  function supervisorFor(mode: string, killed: number[], output: string[] = []) {
    const diagnostics = tempDir('sidecar-diag');
    dirs.push(diagnostics);
    return new SidecarSupervisor({
      launcher: recordingLauncher(output),
      entry: TINY_SIDECAR,
      dataDir: '/tmp/not-used-by-the-tiny-sidecar',
      env: async () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', TINY_SIDECAR_MODE: mode }),
      execArgv: [],
      stopGraceMs: 1000,
      diagnostics: { dir: diagnostics, appVersion: '0.0.0-test', versions: { ...process.versions } },
      killTree: async (pid) => {
        killed.push(pid);
        await killProcessTree(pid);
      },
    });
  }

  it('stops an obedient sidecar with the shutdown message alone', async () => {
    const killed: number[] = [];
    const supervisor = supervisorFor('obedient', killed);
    supervisor.start();
    const backend = await supervisor.backend();
    expect(backend.url).toBe('http://127.0.0.1:45678');
    await supervisor.stop();
    expect(killed).toEqual([]);
    expect(supervisor.state).toEqual({ kind: 'stopped' });
  });

  it('kills the whole tree of a sidecar that ignores shutdown', async () => {
    const killed: number[] = [];
    const output: string[] = [];
    const supervisor = supervisorFor('stubborn', killed, output);
    supervisor.start();
    await supervisor.backend();
    await waitUntil('the grandchild is reported', () => /grandchild pid=\d+/.test(output.join('')));
    const grandchild = Number(/grandchild pid=(\d+)/.exec(output.join(''))?.[1]);
    strays.push(grandchild);
    const sidecarPid = started.at(-1)?.pid;
    if (sidecarPid === undefined) throw new Error('no sidecar pid');
    const pids = [sidecarPid, grandchild];
    expect(pids.some(processGone)).toBe(false);

    await supervisor.stop();
    expect(killed).toEqual([sidecarPid]);
    await waitUntil('the sidecar and its grandchild are gone', () => pids.every(processGone));
  });
});
