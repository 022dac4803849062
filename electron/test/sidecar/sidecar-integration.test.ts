// The supervisor running the real sidecar (`cairn serve --parent-ipc` from source through tsx) over
// a real Node IPC channel: the development path of the desktop host, minus the window.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killPid, processGone, REPO_ROOT } from '../../../sidecar/test/cli/cli-process';
import { TEST_KEY, TEST_MODEL, tempDir } from '../../../sidecar/test/support/harness';
import { startModelServer } from '../../../sidecar/test/support/model-server';
import { killProcessTree } from '../../src/sidecar/kill-tree';
import { nodeForkLauncher } from '../../src/sidecar/node-fork-launcher';
import { sidecarBaseEnv } from '../../src/sidecar/sidecar-env';
import type { SidecarChild, SidecarLauncher } from '../../src/sidecar/sidecar-launcher';
import { type SidecarState, SidecarSupervisor } from '../../src/sidecar/sidecar-supervisor';
import { waitUntil } from './wait-until';

const dirs: string[] = [];
const pids: number[] = [];
let supervisor: SidecarSupervisor | null = null;

afterEach(async () => {
  await supervisor?.stop();
  supervisor = null;
  for (const pid of pids.splice(0)) killPid(pid);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The host's environment minus any Cairn settings of the machine running the tests, plus `extra`. */
function hostEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CAIRN_'))),
    ...extra,
  };
}

/** A supervisor that runs the real sidecar from source with the real Node launcher. */
function supervise(
  launcher: SidecarLauncher,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  killTree = killProcessTree,
) {
  const diagnosticsDir = tempDir('supervised-diag');
  dirs.push(diagnosticsDir);
  return new SidecarSupervisor({
    launcher,
    entry: path.join(REPO_ROOT, 'sidecar', 'bin', 'cairn.mjs'),
    dataDir,
    env: async () => sidecarBaseEnv(env, { loginPath: null, platform: process.platform }),
    execArgv: [],
    cwd: REPO_ROOT,
    // Generous: the first start compiles the TypeScript sources through tsx on a busy machine.
    readyTimeoutMs: 90_000,
    stopGraceMs: 20_000,
    diagnostics: { dir: diagnosticsDir, appVersion: '0.0.0-test', versions: { ...process.versions } },
    killTree,
  });
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

async function call(
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const get = (url: string, token?: string) => call('GET', url, token);

/** A launcher that records each child the real Node launcher starts, and its exit. */
function recordingLauncher(children: SidecarChild[], exits: (number | null)[] = []): SidecarLauncher {
  const real = nodeForkLauncher(process.execPath);
  return {
    launch(spec) {
      const child = real.launch(spec);
      children.push(child);
      child.onExit((code) => exits.push(code));
      return child;
    },
  };
}

describe('SidecarSupervisor with the real sidecar', () => {
  it('starts it, restarts it with a new token after kill -9, and stops it gracefully', {
    timeout: 240_000,
  }, async () => {
    const dataDir = tempDir('supervised-data');
    dirs.push(dataDir);
    const children: SidecarChild[] = [];
    const exits: (number | null)[] = [];
    const treeKills: number[] = [];
    supervisor = supervise(recordingLauncher(children, exits), dataDir, hostEnv(), async (pid) => {
      treeKills.push(pid);
      await killProcessTree(pid);
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

  // Any process of the same user, so every command the agent runs, can read the sidecar's environment
  // and arguments: the token must be in neither, nor in what the sidecar's own children inherit.
  it.runIf(process.platform === 'linux')(
    'hands the token over IPC only: not in /proc/<pid>/environ or cmdline, nor visible to a Bash command',
    { timeout: 240_000 },
    async () => {
      const model = await startModelServer();
      const dataDir = tempDir('environ-data');
      const projectDir = tempDir('environ-project');
      dirs.push(dataDir, projectDir);
      const children: SidecarChild[] = [];
      const env = hostEnv({
        CAIRN_ANTHROPIC_API_KEY: TEST_KEY,
        CAIRN_ANTHROPIC_BASE_URL: model.url,
        CAIRN_MODEL: TEST_MODEL,
        CAIRN_MODEL_MAX_RETRIES: '0',
        // A token the user had set: dropped on the way to the sidecar.
        CAIRN_TOKEN: 'users-own-token-0123456789-abcdefghijkl',
      });
      supervisor = supervise(recordingLauncher(children), dataDir, env);
      supervisor.start();
      try {
        const backend = await supervisor.backend();
        const pid = children[0]?.pid;
        if (pid === undefined) throw new Error('the sidecar has no pid');
        pids.push(pid);

        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        // The file is really the sidecar's environment: the data directory the host gave it is there.
        expect(environ.split('\0')).toContain(`CAIRN_DATA_DIR=${dataDir}`);
        expect(cmdline).toContain('--parent-ipc');
        for (const text of [environ, cmdline]) {
          expect(text).not.toContain(backend.token);
          expect(text).not.toContain('CAIRN_TOKEN');
        }
        // The token the host holds is the one the API takes.
        expect((await get(`${backend.url}/api/capabilities`, backend.token)).status).toBe(200);
        expect(
          (await get(`${backend.url}/api/capabilities`, 'users-own-token-0123456789-abcdefghijkl')).status,
        ).toBe(401);

        // A command the agent runs, as a child of the sidecar: its own environment, and its parent's.
        const api = (method: string, route: string, body?: unknown) =>
          call(method, `${backend.url}${route}`, backend.token, body);
        const project = (await api('POST', '/api/projects', { path: projectDir })).body as { id: string };
        const session = (await api('POST', '/api/sessions', { project_id: project.id })).body as {
          id: string;
        };
        model.enqueue(
          {
            content: [
              {
                type: 'tool_use',
                name: 'Bash',
                input: {
                  command: 'echo "parent=$PPID"; tr "\\0" "\\n" < /proc/$PPID/environ; echo ---; env',
                },
              },
            ],
          },
          { content: [{ type: 'text', text: 'Done.' }] },
        );
        const started = await api('POST', `/api/sessions/${session.id}/turns`, {
          prompt: 'show me the environment',
          request_id: 'environ-check',
        });
        expect(started.status).toBe(202);
        const turnId = (started.body as { id: string }).id;
        await expect
          .poll(async () => ((await api('GET', `/api/turns/${turnId}`)).body as { status: string }).status, {
            timeout: 60_000,
          })
          .toBe('completed');
        const turns = (await api('GET', `/api/sessions/${session.id}/turns`)).body as {
          turns: { tool_calls: { id: string }[] }[];
        };
        const callId = turns.turns[0]?.tool_calls[0]?.id;
        const output = JSON.stringify((await api('GET', `/api/tool-calls/${callId}`)).body);
        // The command ran under the sidecar and read its environment, so the check below sees real content.
        expect(output).toContain(`parent=${pid}`);
        expect(output).toContain(`CAIRN_DATA_DIR=${dataDir}`);
        expect(output).toContain('PATH=');
        expect(output).not.toContain(backend.token);
        expect(output).not.toContain('CAIRN_TOKEN');
      } finally {
        await supervisor.stop();
        await model.close();
      }
    },
  );
});
