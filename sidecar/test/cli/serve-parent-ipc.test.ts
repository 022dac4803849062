// `cairn serve --parent-ipc` as the desktop host runs it in development: forked by Node with an IPC
// channel, CAIRN_TOKEN in its environment, port 0, and the real port reported in a ready message.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SidecarReady } from '../../src/protocol/host';
import { tempDir } from '../support/harness';
import { REPO_ROOT, runCli } from './cli-process';

const TOKEN = 'parent-ipc-token-0123456789-abcdefghijklmn';
const BIN = path.join(REPO_ROOT, 'sidecar', 'bin', 'cairn.mjs');

interface Forked {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  messages: unknown[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  ready: Promise<SidecarReady>;
}

let dataDir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = tempDir('ipc-data');
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const lockFile = () => path.join(dataDir, 'cairn.lock');

/** Forks the real CLI the way the host's Node launcher does: JSON IPC, stdout and stderr piped. */
function forkServe(env: NodeJS.ProcessEnv = { CAIRN_TOKEN: TOKEN }): Forked {
  const child = fork(BIN, ['serve', '--port', '0', '--parent-ipc', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, CAIRN_TOKEN: undefined, ...env },
    // The runner's own loader flags must not leak into the child.
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const messages: unknown[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<SidecarReady>((resolve, reject) => {
    child.on('message', (message) => {
      messages.push(message);
      if (messages.length === 1) resolve(SidecarReady.parse(message));
    });
    void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before ready:\n${stderr}`)));
  });
  // A test that expects no ready never awaits this one.
  ready.catch(() => undefined);
  return { child, stdout: () => stdout, stderr: () => stderr, messages, exited, ready };
}

async function get(port: number, route: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn serve --parent-ipc', { timeout: 120_000 }, () => {
  it('reports the bound port in ready, serves with the host token, and exits 0 on shutdown', async () => {
    const serve = forkServe();
    const ready = await serve.ready;

    expect(ready.pid).toBe(serve.child.pid);
    expect(ready.port).toBeGreaterThan(0);
    expect(ready.version).toMatch(/^\d+\.\d+\.\d+/);
    const health = await get(ready.port, '/api/health');
    expect(health.body).toMatchObject({ ok: true, version: ready.version });
    const caps = await get(ready.port, '/api/capabilities');
    expect(caps.status).toBe(200);
    expect(caps.body.mode).toBe('local');
    // The host's token came from the environment: not printed, not written to the data directory.
    expect(serve.stdout()).toBe('');
    expect(serve.stderr()).not.toContain(TOKEN);
    expect(fs.existsSync(path.join(dataDir, 'token'))).toBe(false);
    expect(fs.existsSync(lockFile())).toBe(true);

    serve.child.send({ type: 'shutdown' });
    // Stopped and released, but alive: the host may now kill it with whatever its tools left running.
    await expect.poll(() => serve.messages.length, { timeout: 20_000 }).toBe(2);
    expect(serve.messages[1]).toEqual({ type: 'stopped' });
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(serve.child.exitCode).toBeNull();
    await expect(fetch(`http://127.0.0.1:${ready.port}/api/health`)).rejects.toThrow();
    // A host that closes the channel instead lets it exit by itself, cleanly.
    serve.child.disconnect();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
  });

  it('ignores a message it does not know, and keeps serving', async () => {
    const serve = forkServe();
    const ready = await serve.ready;

    serve.child.send({ type: 'format-disk' });
    serve.child.send('shutdown');
    await expect.poll(() => serve.stderr(), { timeout: 20_000 }).toContain('"format-disk"');
    expect((await get(ready.port, '/api/health')).status).toBe(200);

    serve.child.send({ type: 'shutdown' });
    await expect.poll(() => serve.messages.at(-1), { timeout: 20_000 }).toEqual({ type: 'stopped' });
    serve.child.disconnect();
    expect((await serve.exited).code).toBe(0);
  });

  it('stops when the host goes away (the IPC channel closes)', async () => {
    const serve = forkServe();
    const ready = await serve.ready;

    serve.child.disconnect();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(lockFile())).toBe(false);
    await expect(fetch(`http://127.0.0.1:${ready.port}/api/health`)).rejects.toThrow();
  });

  it('refuses to start without a channel to a host, or without the host token', async () => {
    const alone = await runCli(['serve', '--port', '0', '--parent-ipc', '--data-dir', dataDir], {
      env: { ...process.env, CAIRN_TOKEN: TOKEN },
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--parent-ipc needs a channel');
    expect(alone.stdout).toBe('');

    const noToken = forkServe({ CAIRN_TOKEN: undefined });
    expect((await noToken.exited).code).toBe(2);
    expect(noToken.stderr()).toContain('CAIRN_TOKEN');
    expect(fs.existsSync(lockFile())).toBe(false);
  });
});
