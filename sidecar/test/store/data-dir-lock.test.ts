import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors';
import { acquireDataDirLock, type DataDirLock, DataDirLockedError } from '../../src/store/data-dir-lock';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const lockModule = pathToFileURL(path.join(repoRoot, 'sidecar/src/store/data-dir-lock.ts')).href;

// Runs in a separate real process: tries to take the lock, prints one JSON line, then either exits
// (MODE=try) or keeps the lock until killed (MODE=hold).
const CHILD = `
  const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
  const startAt = Number(process.env.START_AT ?? 0);
  while (Date.now() < startAt) {}
  try {
    const lock = acquireDataDirLock(process.env.LOCK_DIR, { command: 'cairn serve' });
    console.log(JSON.stringify({ ok: true, pid: process.pid, path: lock.path }));
    if (process.env.MODE === 'hold') setInterval(() => {}, 1000);
  } catch (e) {
    console.log(JSON.stringify({ ok: false, code: e.code, message: e.message, holder: e.holder }));
  }`;

interface ChildResult {
  ok: boolean;
  pid?: number;
  code?: string;
  message?: string;
  holder?: { pid: number; command: string };
}

const children: ChildProcess[] = [];
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lock-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function startChild(
  mode: 'try' | 'hold',
  extraEnv: Record<string, string> = {},
): {
  child: ChildProcess;
  result: Promise<ChildResult>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: repoRoot,
    env: { ...process.env, LOCK_DIR: dir, MODE: mode, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const result = new Promise<ChildResult>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as ChildResult);
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) without a result: ${err}`)));
  });
  return { child, result };
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', () => r()));

const lockFile = (): string => path.join(dir, 'cairn.lock');
const readHolder = (): { pid: number; hostname: string; command: string; started_at: string } =>
  JSON.parse(fs.readFileSync(lockFile(), 'utf8'));

/** A pid that certainly belonged to a process that is gone now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await exited(child);
  return child.pid ?? 0;
}

describe('acquireDataDirLock', () => {
  it('writes pid, hostname, command and start time, and release removes it', () => {
    const lock = acquireDataDirLock(dir, { command: 'cairn serve' });
    expect(lock.path).toBe(lockFile());
    const holder = readHolder();
    expect(holder).toMatchObject({ pid: process.pid, hostname: os.hostname(), command: 'cairn serve' });
    expect(Number.isNaN(Date.parse(holder.started_at))).toBe(false);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
    lock.release(); // idempotent
  });

  it.runIf(process.platform !== 'win32')('creates the folder and the lock owner-only under umask 022', () => {
    const umask = process.umask(0o022);
    try {
      const nested = path.join(dir, 'new', 'data');
      const lock = acquireDataDirLock(nested, { command: 'cairn serve' });
      expect(fs.statSync(nested).mode & 0o777).toBe(0o700);
      expect(fs.statSync(lock.path).mode & 0o777).toBe(0o600);
      lock.release();
    } finally {
      process.umask(umask);
    }
  });

  it('refuses a second process while held, naming the directory and pid', async () => {
    const lock = acquireDataDirLock(dir, { command: 'cairn serve' });
    try {
      const result = await startChild('try').result;
      expect(result.ok).toBe(false);
      expect(result.code).toBe('data_dir_locked');
      expect(result.message).toBe(
        `The data directory ${dir} is in use by another Cairn process (pid ${process.pid}, "cairn serve", ` +
          `started ${readHolder().started_at}). Stop that process or choose another directory with --data-dir.`,
      );
      expect(result.holder).toMatchObject({ pid: process.pid, command: 'cairn serve' });
    } finally {
      lock.release();
    }

    // Once released, another process gets it, and its exit handler cleans up after it.
    const { child, result } = startChild('try');
    expect((await result).ok).toBe(true);
    await exited(child);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('refuses this process while another process holds it, exposing the holder', async () => {
    const { child, result } = startChild('hold');
    const held = await result;
    expect(held.ok).toBe(true);

    let error: unknown;
    try {
      acquireDataDirLock(dir, { command: 'cairn run' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect(error).toBeInstanceOf(CairnError);
    const locked = error as DataDirLockedError;
    expect(locked.code).toBe('data_dir_locked');
    expect(locked.status).toBe(409);
    expect(locked.message).toContain(`pid ${held.pid},`);
    expect(locked.message).toContain(dir);
    expect(locked.holder).toMatchObject({ pid: held.pid, hostname: os.hostname(), command: 'cairn serve' });
    expect(child.pid).toBe(held.pid);
  });

  it('is not blocked by a lock left behind by a SIGKILLed process', async () => {
    const { child, result } = startChild('hold');
    const held = await result;
    expect(held.ok).toBe(true);
    child.kill('SIGKILL');
    await exited(child);
    expect(readHolder().pid).toBe(held.pid); // the file is still there

    const lock = acquireDataDirLock(dir, { command: 'cairn serve' });
    expect(readHolder().pid).toBe(process.pid);
    lock.release();
  });

  it('can be re-acquired after release, but not twice at once in one process', () => {
    const first = acquireDataDirLock(dir, { command: 'cairn serve' });
    expect(() => acquireDataDirLock(dir, { command: 'cairn serve' })).toThrow(DataDirLockedError);
    first.release();
    const second = acquireDataDirLock(dir, { command: 'cairn serve' });
    expect(readHolder().pid).toBe(process.pid);
    second.release();
  });

  it.each([
    ['garbage', 'not json at all {'],
    ['empty', ''],
    ['wrong shape', JSON.stringify({ pid: 'x', hostname: 5 })],
  ])('treats a %s lock file as stale', (_, content) => {
    fs.writeFileSync(lockFile(), content);
    const lock = acquireDataDirLock(dir, { command: 'cairn serve' });
    expect(readHolder().pid).toBe(process.pid);
    lock.release();
  });

  it('treats a dead pid on this host as stale', async () => {
    const pid = await deadPid();
    const stale = {
      pid,
      hostname: os.hostname(),
      command: 'cairn serve',
      started_at: '2020-01-01T00:00:00Z',
    };
    fs.writeFileSync(lockFile(), JSON.stringify(stale));
    const lock = acquireDataDirLock(dir, { command: 'cairn serve' });
    expect(readHolder().pid).toBe(process.pid);
    lock.release();
  });

  it('treats a lock from another host as held', async () => {
    const pid = await deadPid();
    const other = { pid, hostname: `${os.hostname()}-elsewhere`, command: 'cairn serve', started_at: 'then' };
    fs.writeFileSync(lockFile(), JSON.stringify(other));
    expect(() => acquireDataDirLock(dir, { command: 'cairn serve' })).toThrow(
      `(pid ${pid} on ${other.hostname}, "cairn serve", started then)`,
    );
  });

  it('does not remove a lock file that is no longer its own', () => {
    const lock: DataDirLock = acquireDataDirLock(dir, { command: 'cairn serve' });
    const replacement = JSON.stringify({ pid: 1, hostname: 'other', command: 'x', started_at: 'y' });
    fs.writeFileSync(lockFile(), replacement);
    lock.release();
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(replacement);
  });

  it('lets exactly one of several racing processes break a stale lock', async () => {
    const pid = await deadPid();
    const stale = {
      pid,
      hostname: os.hostname(),
      command: 'cairn serve',
      started_at: '2020-01-01T00:00:00Z',
    };
    fs.writeFileSync(lockFile(), JSON.stringify(stale));

    // All children spin until the same instant so their attempts really overlap.
    const startAt = String(Date.now() + 2_000);
    const racers = Array.from({ length: 6 }, () => startChild('hold', { START_AT: startAt }));
    const results = await Promise.all(racers.map((r) => r.result));

    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(readHolder().pid).toBe(winners[0]?.pid);
    for (const loser of results.filter((r) => !r.ok)) {
      expect(loser.code).toBe('data_dir_locked');
      expect(loser.holder?.pid).toBe(winners[0]?.pid);
    }
    expect(fs.existsSync(`${lockFile()}.break`)).toBe(false);
  });
});

describe('a lock from an earlier boot of this machine', () => {
  it('is stale even when its pid is alive now (pids are reused after a reboot)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lock-boot-'));
    // pid 1 always exists: without the boot check this lock would look held.
    const earlierBoot = Date.now() - os.uptime() * 1000 - 3_600_000;
    fs.writeFileSync(
      path.join(dir, 'cairn.lock'),
      JSON.stringify({
        pid: 1,
        hostname: os.hostname(),
        command: 'cairn serve',
        started_at: 'x',
        booted_at: earlierBoot,
      }),
    );
    const lock = acquireDataDirLock(dir, { command: 'test' });
    lock.release();
    // The same lock with this boot's time is respected.
    fs.writeFileSync(
      path.join(dir, 'cairn.lock'),
      JSON.stringify({
        pid: 1,
        hostname: os.hostname(),
        command: 'cairn serve',
        started_at: 'x',
        booted_at: Date.now() - os.uptime() * 1000,
      }),
    );
    expect(() => acquireDataDirLock(dir, { command: 'test' })).toThrow(
      /in use by another Cairn process \(pid 1/,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
