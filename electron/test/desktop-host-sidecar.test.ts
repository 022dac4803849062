// DesktopHost with the real SidecarSupervisor running the real sidecar (`cairn serve --parent-ipc`
// from source, under this Node): the development path of the app, minus Electron's window.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killLeftoverClis, processGone, REPO_ROOT, startServe } from '../../sidecar/test/cli/cli-process';
import { DesktopHost } from '../src/desktop-host';
import { IPC_CHANNELS } from '../src/ipc-policy';
import { killProcessTree } from '../src/sidecar/kill-tree';
import { nodeForkLauncher } from '../src/sidecar/node-fork-launcher';
import { sidecarBaseEnv } from '../src/sidecar/sidecar-env';
import type { SidecarChild } from '../src/sidecar/sidecar-launcher';
import { SidecarSupervisor } from '../src/sidecar/sidecar-supervisor';
import { FakeAdapter } from './support/fake-host';
import { cleanUpHosts, tempFolder } from './support/host-setup';

afterEach(async () => {
  await killLeftoverClis();
  await cleanUpHosts();
});

/** The test machine's environment without any Cairn settings of its own. */
function hostEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CAIRN_')));
}

async function waitUntil(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function realHost(dataDir: string, maxCrashes = 3) {
  const userData = tempFolder('electron-real-userdata');
  const adapter = new FakeAdapter(userData, REPO_ROOT);
  const children: SidecarChild[] = [];
  const launcher = nodeForkLauncher(process.execPath);
  const host = new DesktopHost({
    adapter,
    env: { CAIRN_DATA_DIR: dataDir },
    createSupervisor: (paths) =>
      new SidecarSupervisor({
        launcher: {
          launch(spec) {
            const child = launcher.launch(spec);
            children.push(child);
            return child;
          },
        },
        // From source: the bundle (paths.sidecarEntry) is built only for packaging.
        entry: path.join(REPO_ROOT, 'sidecar', 'bin', 'cairn.mjs'),
        cwd: REPO_ROOT,
        dataDir: paths.dataDir,
        env: async () => sidecarBaseEnv(hostEnv(), { loginPath: null, platform: process.platform }),
        execArgv: [],
        readyTimeoutMs: 90_000,
        maxCrashes,
        diagnostics: {
          dir: paths.diagnosticsDir,
          appVersion: adapter.appVersion,
          versions: { ...adapter.versions },
        },
        killTree: (pid) => killProcessTree(pid),
      }),
  });
  return { adapter, host, children, userData };
}

describe('DesktopHost with the real sidecar', () => {
  it('starts it in local mode, hands its backend to the page, and quits only once it has stopped', {
    timeout: 180_000,
  }, async () => {
    const dataDir = tempFolder('electron-real-data');
    const { adapter, host, children } = realHost(dataDir);
    await host.run();

    const backend = (await adapter.invoke(IPC_CHANNELS.getBackend)) as { url: string; token: string };
    expect(backend).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      mode: 'local',
    });
    const about = await fetch(`${backend.url}/api/about`, {
      headers: { authorization: `Bearer ${backend.token}` },
    });
    expect(about.status).toBe(200);
    // The data directory is the one CAIRN_DATA_DIR names, shared with the CLI.
    expect(((await about.json()) as { data_dir: string }).data_dir).toBe(dataDir);
    const pid = children[0]?.pid;
    if (pid === undefined) throw new Error('the sidecar has no pid');

    expect(adapter.beforeQuit()).toBe(true);
    expect(adapter.quits).toBe(0);
    await waitUntil('the host quits', () => adapter.quits === 1, 30_000);
    expect(processGone(pid)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'cairn.lock'))).toBe(false);
  });

  it('shows the sidecar stderr and the diagnostics file when it cannot start', {
    timeout: 180_000,
  }, async () => {
    // Another Cairn already owns the data directory: the app's sidecar must fail, and say why.
    const dataDir = tempFolder('electron-real-locked');
    await startServe(dataDir, { ...hostEnv() });
    const { adapter, host } = realHost(dataDir, 1);
    await host.run();

    await waitUntil('the failure dialog', () => adapter.errors.length > 0, 90_000);
    expect(adapter.errors).toHaveLength(1);
    const { content } = adapter.errors[0]!;
    const diagnostics = content.match(/Details were written to (\S+)/)?.[1];
    expect(diagnostics, content).toBeDefined();
    expect(fs.existsSync(diagnostics!)).toBe(true);
    expect(path.dirname(diagnostics!)).toBe(path.join(adapter.userDataDir, 'logs'));
    // The sidecar's own words, from its stderr.
    expect(content).toMatch(/data directory .* is in use by another Cairn process/);
    await expect(adapter.invoke(IPC_CHANNELS.getBackend)).rejects.toThrow();
  });
});
