import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { freeLoopbackPort } from '../../support/loopback-server';
import { makeTempDir, removeDir } from '../../tools/tool-context';

export const JUPYTER_SERVER = '/usr/bin/jupyter-server';

/** A real Jupyter Server on 127.0.0.1 with a random port and token, its state in a temporary HOME. */
export interface TestJupyterServer {
  baseUrl: string;
  token: string;
  /** The server's log: every request URI (DEBUG), and the token in its start-up banner. */
  output(): string;
  stop(): Promise<void>;
}

export async function startJupyterServer(): Promise<TestJupyterServer> {
  if (!existsSync(JUPYTER_SERVER)) {
    throw new Error(
      `${JUPYTER_SERVER} is missing: install Debian's server with ` +
        '`apt-get install -y --no-install-recommends jupyter-server` (the python3 kernel needs python3-ipykernel).',
    );
  }
  const home = await makeTempDir('cairn-jupyter-');
  const dirs = { config: 'config', data: 'data', runtime: 'runtime', ipython: 'ipython', mpl: 'mpl' };
  for (const dir of Object.values(dirs)) await fs.mkdir(path.join(home, dir));
  const port = await freeLoopbackPort();
  const token = randomBytes(24).toString('hex');
  const env: NodeJS.ProcessEnv = {
    PATH: `/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    JUPYTER_CONFIG_DIR: path.join(home, dirs.config),
    JUPYTER_DATA_DIR: path.join(home, dirs.data),
    JUPYTER_RUNTIME_DIR: path.join(home, dirs.runtime),
    IPYTHONDIR: path.join(home, dirs.ipython),
    MPLCONFIGDIR: path.join(home, dirs.mpl),
  };
  const child = spawn(
    JUPYTER_SERVER,
    [
      '--allow-root',
      '--ServerApp.ip=127.0.0.1',
      `--ServerApp.port=${port}`,
      // On the command line only because the test owns this throwaway server; Cairn never does this.
      `--ServerApp.token=${token}`,
      '--ServerApp.open_browser=False',
      '--ServerApp.port_retries=0',
      // Logs every request's URI (1.23 does not scrub them), so a test can see what the socket URL held.
      '--ServerApp.log_level=DEBUG',
    ],
    { cwd: home, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    await stopGroup(child);
    await removeDir(home);
  };
  try {
    await waitReady(child, baseUrl, token, () => log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, token, output: () => log, stop };
}

async function waitReady(child: ChildProcess, baseUrl: string, token: string, log: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`jupyter-server exited at start-up:\n${log()}`);
    }
    try {
      const response = await fetch(`${baseUrl}api/status`, { headers: { Authorization: `token ${token}` } });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`jupyter-server did not answer within 30 s:\n${log()}`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  // The kernels the server started share its group.
  signal('SIGKILL');
}

/** GET /api/kernels on the test server: the ids of the kernels running there. */
export async function serverKernelIds(server: TestJupyterServer): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}api/kernels`, {
    headers: { Authorization: `token ${server.token}` },
  });
  if (!response.ok) throw new Error(`GET /api/kernels answered ${response.status}`);
  return ((await response.json()) as { id: string }[]).map((k) => k.id);
}
