import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeOwnerOnlyDir, OWNER_ONLY_FILE_MODE } from '../config/owner-only-files';
import { CairnError } from '../errors';

export interface DataDirLock {
  release(): void;
  readonly path: string;
}

/** What the lock file says about its owner. */
export interface LockHolder {
  pid: number;
  hostname: string;
  command: string;
  started_at: string;
  /** When this machine booted (ms since the epoch, ±seconds): a lock from an earlier boot is stale. */
  booted_at?: number;
}

/** data_dir_locked, carrying the holder so the CLI can suggest connecting to it instead. */
export class DataDirLockedError extends CairnError {
  readonly holder: LockHolder;
  readonly dataDir: string;
  constructor(dataDir: string, holder: LockHolder) {
    const where = holder.hostname === os.hostname() ? '' : ` on ${holder.hostname}`;
    super(
      'data_dir_locked',
      `The data directory ${dataDir} is in use by another Cairn process (pid ${holder.pid}${where}, ` +
        `"${holder.command}", started ${holder.started_at}). ` +
        'Stop that process or choose another directory with --data-dir.',
    );
    this.holder = holder;
    this.dataDir = dataDir;
  }
}

const LOCK_NAME = 'cairn.lock';
const MAX_ATTEMPTS = 5;
// A breaker holds `cairn.lock.break` for microseconds; one older than this was left by a crash.
const BREAK_STALE_MS = 10_000;

/** Lock files this process currently holds, so a recycled pid equal to ours is not mistaken for us. */
const held = new Set<string>();

/**
 * Makes this process the only Cairn process using `dataDir`. The lock file is created with O_EXCL
 * ('wx'), so when several processes start at once exactly one open succeeds. A lock whose owner is
 * gone (dead pid on this host, or unreadable content) is broken under a second O_EXCL "break" lock,
 * so two starters cannot both delete a stale lock and then each other's fresh one.
 */
export function acquireDataDirLock(dataDir: string, info: { command: string }): DataDirLock {
  const dir = path.resolve(dataDir);
  makeOwnerOnlyDir(dir);
  const lockPath = path.join(dir, LOCK_NAME);
  const breakPath = `${lockPath}.break`;
  const mine: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    command: info.command,
    started_at: new Date().toISOString(),
    booted_at: bootTime(),
  };
  const content = `${JSON.stringify(mine)}\n`;

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (tryCreate(lockPath, content)) return ownLock(lockPath, content);

    const seen = readLock(lockPath);
    if (seen === 'missing') continue; // released between our open and read
    if (seen.holder && isAlive(seen.holder, lockPath)) throw new DataDirLockedError(dir, seen.holder);

    // Stale: remove it, but only while holding the break lock and only if it is still the same file.
    if (!tryCreate(breakPath, content)) {
      clearAbandonedBreakLock(breakPath);
      sleep(20);
      continue;
    }
    try {
      const again = readLock(lockPath);
      if (again !== 'missing' && again.raw === seen.raw) fs.rmSync(lockPath, { force: true });
    } finally {
      fs.rmSync(breakPath, { force: true });
    }
  }

  // Only reachable under sustained contention; report whoever holds it now.
  const last = readLock(lockPath);
  const holder = last !== 'missing' && last.holder ? last.holder : { ...mine, pid: 0, command: 'unknown' };
  throw new DataDirLockedError(dir, holder);
}

function tryCreate(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', OWNER_ONLY_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function ownLock(lockPath: string, content: string): DataDirLock {
  held.add(lockPath);
  const release = (): void => {
    process.off('exit', release);
    if (!held.delete(lockPath)) return;
    try {
      // Only remove the file if it is still ours (it may have been judged stale and replaced).
      if (fs.readFileSync(lockPath, 'utf8') === content) fs.rmSync(lockPath, { force: true });
    } catch {
      // Already gone, or unreadable: nothing of ours to remove.
    }
  };
  process.on('exit', release);
  return { release, path: lockPath };
}

type LockRead = 'missing' | { raw: string; holder: LockHolder | null };

function readLock(lockPath: string): LockRead {
  let raw: string;
  try {
    raw = fs.readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  let holder = parseHolder(raw);
  if (!holder) {
    // The creator may be between its open and its write; look once more before calling it garbage.
    sleep(50);
    try {
      raw = fs.readFileSync(lockPath, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw err;
    }
    holder = parseHolder(raw);
  }
  return { raw, holder };
}

function parseHolder(raw: string): LockHolder | null {
  try {
    const v = JSON.parse(raw) as Partial<LockHolder> | null;
    if (!v || typeof v !== 'object' || !Number.isInteger(v.pid) || (v.pid ?? 0) <= 0) return null;
    if (typeof v.hostname !== 'string') return null;
    return {
      pid: v.pid as number,
      hostname: v.hostname,
      command: typeof v.command === 'string' ? v.command : 'unknown',
      started_at: typeof v.started_at === 'string' ? v.started_at : 'at an unknown time',
      ...(typeof v.booted_at === 'number' ? { booted_at: v.booted_at } : {}),
    };
  } catch {
    return null;
  }
}

function isAlive(holder: LockHolder, lockPath: string): boolean {
  // Another host's process cannot be probed; on a shared folder assume it is running.
  if (holder.hostname !== os.hostname()) return true;
  // After a reboot every old process is gone, even if its pid now belongs to another (Windows reuses them fast).
  if (holder.booted_at !== undefined && Math.abs(holder.booted_at - bootTime()) > BOOT_TOLERANCE_MS)
    return false;
  // Our own pid in a file we do not hold means a previous life of this pid (e.g. a container's pid 1).
  if (holder.pid === process.pid) return held.has(lockPath);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const BOOT_TOLERANCE_MS = 60_000;

function bootTime(): number {
  return Date.now() - os.uptime() * 1000;
}

function clearAbandonedBreakLock(breakPath: string): void {
  try {
    if (Date.now() - fs.statSync(breakPath).mtimeMs > BREAK_STALE_MS) fs.rmSync(breakPath, { force: true });
  } catch {
    // Gone already.
  }
}

function sleep(ms: number): void {
  // Acquisition is synchronous by design (it runs before anything else starts).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
