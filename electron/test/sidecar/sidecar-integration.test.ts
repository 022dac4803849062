// The supervisor running the real sidecar (`cairn serve --parent-ipc` from source through tsx) over
// a real Node IPC channel: the development path of the desktop host, minus the window.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killPid, processGone, REPO_ROOT } from '../../../sidecar/test/cli/cli-process';
import { tempDir } from '../../../sidecar/test/support/harness';
import { killProcessTree } from '../../src/sidecar/kill-tree';
import { nodeForkLauncher } from '../../src/sidecar/node-fork-launcher';
import { sidecarBaseEnv } from '../../src/sidecar/sidecar-env';
import type { SidecarChild } from '../../src/sidecar/sidecar-launcher';
import { type SidecarState, SidecarSupervisor } from '../../src/sidecar/sidecar-supervisor';
import { waitUntil } from './wait-until';

const SERVE_COMMAND = path.join(REPO_ROOT, 'sidecar', 'src', 'cli', 'serve-command.ts');
const HAS_PARENT_IPC = fs.readFileSync(SERVE_COMMAND, 'utf8').includes('parent-ipc');
const SKIP_REASON = HAS_PARENT_IPC
  ? ''
  : ' (skipped: sidecar/src/cli/serve-command.ts has no --parent-ipc yet)';

const dirs: string[] = [];
const pids: number[] = [];
let supervisor: SidecarSupervisor | null = null;

afterEach(async () => {
  await supervisor?.stop();
  supervisor = null;
  for (const pid of pids.splice(0)) killPid(pid);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The host's environment minus any Cairn settings of the machine running the tests. */
function hostEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CAIRN_')));
}

function nextState(subject: SidecarSupervisor, kind: SidecarState['kind']): Promise<SidecarState> {
  return new Promise((resolve) => {
    const off = subject.onStateChange((state) => {
      if (state.kind !== kind) return;
      off();
      resolve(state);
    });
  });
}

async function get(url: string, token?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(!HAS_PARENT_IPC)(`SidecarSupervisor with the real sidecar${SKIP_REASON}`, () => {
  it('starts it, restarts it with a new token after kill -9, and stops it gracefully', {
    timeout: 240_000,
  }, async () => {
    const dataDir = tempDir('supervised-data');
    const diagnosticsDir = tempDir('supervised-diag');
    dirs.push(dataDir, diagnosticsDir);
    const children: SidecarChild[] = [];
    const exits: (number | null)[] = [];
    const treeKills: number[] = [];
    const real = nodeForkLauncher(process.execPath);
    supervisor = new SidecarSupervisor({
      launcher: {
        launch(spec) {
          const child = real.launch(spec);
          children.push(child);
          child.onExit((code) => exits.push(code));
          return child;
        },
      },
      entry: path.join(REPO_ROOT, 'sidecar', 'bin', 'cairn.mjs'),
      dataDir,
      env: async () => sidecarBaseEnv(hostEnv(), { loginPath: null, platform: process.platform }),
      execArgv: [],
      cwd: REPO_ROOT,
      // Generous: the first start compiles the TypeScript sources through tsx on a busy machine.
      readyTimeoutMs: 90_000,
      stopGraceMs: 20_000,
      diagnostics: { dir: diagnosticsDir, appVersion: '0.0.0-test', versions: { ...process.versions } },
      killTree: async (pid) => {
        treeKills.push(pid);
        await killProcessTree(pid);
      },
    });
    const states: SidecarState[] = [];
    supervisor.onStateChange((state) => states.push(state));
    supervisor.start();

    const first = await supervisor.backend();
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const firstPid = children[0]?.pid;
    if (firstPid === undefined) throw new Error('the first sidecar has no pid');
    pids.push(firstPid);

    expect(await get(`${first.url}/api/health`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await get(`${first.url}/api/capabilities`, first.token)).status).toBe(200);
    expect((await get(`${first.url}/api/capabilities`)).status).toBe(401);
    expect((await get(`${first.url}/api/capabilities`, 'not-the-token')).status).toBe(401);

    // The sidecar dies hard: the supervisor starts another one, with another token.
    const restarting = nextState(supervisor, 'restarting');
    const readyAgain = nextState(supervisor, 'ready');
    process.kill(firstPid, 'SIGKILL');
    expect(await restarting).toMatchObject({ kind: 'restarting', attempt: 1, lastExitCode: null });
    await readyAgain;
    const second = await supervisor.backend();
    const secondPid = children[1]?.pid;
    if (secondPid === undefined) throw new Error('the second sidecar has no pid');
    pids.push(secondPid);
    expect(processGone(firstPid)).toBe(true);
    expect(second.token).not.toBe(first.token);
    expect((await get(`${second.url}/api/capabilities`, second.token)).status).toBe(200);
    expect((await get(`${second.url}/api/capabilities`, first.token)).status).toBe(401);
    expect(JSON.stringify(states)).not.toContain(first.token);
    expect(JSON.stringify(states)).not.toContain(second.token);

    // Quitting: it stops gracefully (answers `stopped` having let go of the data directory), then the
    // host ends it with its whole tree, long before the grace period would have run out.
    await supervisor.stop();
    expect(supervisor.state).toEqual({ kind: 'stopped' });
    expect(treeKills).toEqual([secondPid]);
    await waitUntil('the second sidecar is gone', () => processGone(secondPid), 10_000);
    expect(exits).toEqual([null, null]);
    expect(fs.existsSync(path.join(dataDir, 'cairn.lock'))).toBe(false);
    expect(children).toHaveLength(2);
  });
});
