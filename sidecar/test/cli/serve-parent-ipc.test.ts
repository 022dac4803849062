// `cairn serve --parent-ipc` as the desktop host runs it in development: forked by Node with an IPC
// channel, port 0, the token handed over that channel in answer to the sidecar's hello (never in its
// environment), and the real port reported in a ready message.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SidecarHello, SidecarReady } from '../../src/protocol/host';
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
  hello: Promise<SidecarHello>;
  ready: Promise<SidecarReady>;
}

interface ForkOptions {
  /** Merged over the test runner's environment, which has CAIRN_TOKEN removed. */
  env?: NodeJS.ProcessEnv;
  /** What the "host" sends when the sidecar says hello; none by default is the host's token. */
  answer?: unknown[];
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

/**
 * Forks the real CLI the way the host's Node launcher does (JSON IPC, stdout and stderr piped) and
 * plays the host: answers hello with `answer`.
 */
function forkServe({ env = {}, answer = [{ type: 'configure', token: TOKEN }] }: ForkOptions = {}): Forked {
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
  const ofType = <T>(type: string, parse: (message: unknown) => T) =>
    new Promise<T>((resolve, reject) => {
      child.on('message', (message: { type?: unknown }) => {
        if (message?.type === type) resolve(parse(message));
      });
      void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before ${type}:\n${stderr}`)));
    });
  child.on('message', (message: { type?: unknown }) => {
    messages.push(message);
    if (message?.type === 'hello') for (const reply of answer) child.send(reply as object);
  });
  const hello = ofType('hello', (message) => SidecarHello.parse(message));
  const ready = ofType('ready', (message) => SidecarReady.parse(message));
  // A test that expects no ready never awaits it.
  hello.catch(() => undefined);
  ready.catch(() => undefined);
  return { child, stdout: () => stdout, stderr: () => stderr, messages, exited, hello, ready };
}

async function get(
  port: number,
  route: string,
  token = TOKEN,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// Each CLI start costs a second or more of TypeScript loading; the ceiling only guards against hangs.
describe('cairn serve --parent-ipc', { timeout: 120_000 }, () => {
  it('asks for the token, reports the bound port in ready, serves with the host token, and exits 0 on shutdown', async () => {
    const serve = forkServe();
    const ready = await serve.ready;

    expect(serve.messages[0]).toEqual({ type: 'hello', version: ready.version, pid: serve.child.pid });
    expect(ready.pid).toBe(serve.child.pid);
    expect(ready.port).toBeGreaterThan(0);
    expect(ready.version).toMatch(/^\d+\.\d+\.\d+/);
    const health = await get(ready.port, '/api/health');
    expect(health.body).toMatchObject({ ok: true, version: ready.version });
    const caps = await get(ready.port, '/api/capabilities');
    expect(caps.status).toBe(200);
    expect(caps.body.mode).toBe('local');
    expect((await get(ready.port, '/api/capabilities', 'not-the-token')).status).toBe(401);
    // The host's token came over the channel: not printed, not written to the data directory.
    expect(serve.stdout()).toBe('');
    expect(serve.stderr()).not.toContain(TOKEN);
    expect(fs.existsSync(path.join(dataDir, 'token'))).toBe(false);
    expect(fs.existsSync(lockFile())).toBe(true);

    serve.child.send({ type: 'shutdown' });
    // Stopped and released, but alive: the host may now kill it with whatever its tools left running.
    await expect.poll(() => serve.messages.length, { timeout: 20_000 }).toBe(3);
    expect(serve.messages[2]).toEqual({ type: 'stopped' });
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

  it('refuses to start without a channel to a host', async () => {
    const alone = await runCli(['serve', '--port', '0', '--parent-ipc', '--data-dir', dataDir], {
      env: { ...process.env, CAIRN_TOKEN: TOKEN },
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--parent-ipc needs a channel');
    expect(alone.stdout).toBe('');
  });

  it('refuses a token that is short or has other characters, saying so without echoing it', async () => {
    const short = 'short-token-0123456789';
    const spaced = `${'a'.repeat(40)} b`;
    const serves = [short, spaced].map((token) => forkServe({ answer: [{ type: 'configure', token }] }));
    for (const [index, serve] of serves.entries()) {
      expect((await serve.exited).code).toBe(1);
      expect(serve.stderr()).toContain('The host sent a server token the sidecar cannot use');
      expect(serve.stderr()).toContain(`(${index === 0 ? short.length : spaced.length} characters;`);
      expect(serve.stderr()).not.toContain(index === 0 ? short : spaced);
      expect(serve.messages).toEqual([await serve.hello]);
    }
    // It never got as far as the data directory.
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'token'))).toBe(false);
  });

  it('gives up, saying why, when the host never hands over the token', async () => {
    // The bound is 10 s; shortened here so the test does not sit through it.
    const serve = forkServe({ env: { CAIRN_PARENT_IPC_TIMEOUT_MS: '200' }, answer: [] });
    expect((await serve.exited).code).toBe(1);
    expect(serve.stderr()).toContain('The host did not hand over the server token within 0.2 s');
    expect(serve.messages).toEqual([await serve.hello]);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('exits when the host goes away before handing over the token', async () => {
    const serve = forkServe({ answer: [] });
    await serve.hello;
    serve.child.disconnect();
    expect((await serve.exited).code).toBe(1);
    expect(serve.stderr()).toContain('The host closed the channel before handing over the server token');
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('stops without serving when the host asks to shut down before handing over the token', async () => {
    const serve = forkServe({ answer: [{ type: 'shutdown' }] });
    await expect.poll(() => serve.messages.length, { timeout: 20_000 }).toBe(2);
    expect(serve.messages).toEqual([await serve.hello, { type: 'stopped' }]);
    expect(fs.existsSync(lockFile())).toBe(false);
    serve.child.disconnect();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
  });

  it('keeps a shutdown that comes right after the token for when the server has started', async () => {
    const serve = forkServe({ answer: [{ type: 'configure', token: TOKEN }, { type: 'shutdown' }] });
    await expect.poll(() => serve.messages.length, { timeout: 20_000 }).toBe(3);
    expect(serve.messages.map((message) => (message as { type: string }).type)).toEqual([
      'hello',
      'ready',
      'stopped',
    ]);
    serve.child.disconnect();
    expect(await serve.exited).toEqual({ code: 0, signal: null });
  });

  it('serves with the host token, not with a CAIRN_TOKEN from its environment', async () => {
    const envToken = 'env-token-0123456789-abcdefghijklmnopqrstuv';
    const serve = forkServe({ env: { CAIRN_TOKEN: envToken } });
    const ready = await serve.ready;

    expect(serve.stderr()).toContain('CAIRN_TOKEN in the environment is not used with --parent-ipc');
    expect((await get(ready.port, '/api/capabilities', envToken)).status).toBe(401);
    expect((await get(ready.port, '/api/capabilities')).status).toBe(200);
    serve.child.disconnect();
    expect((await serve.exited).code).toBe(0);
  });
});
