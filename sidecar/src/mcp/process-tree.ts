import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';

/** How long a server's process tree gets after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 2_000;

/**
 * Whether any process of the group led by `pid` is still alive (POSIX). On Linux /proc is read, because
 * signal 0 also reaches zombies, which linger when the container's init does not reap orphans.
 */
export function groupAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      return linuxGroupAlive(pid);
    } catch {
      // No /proc: fall through to signal 0.
    }
  }
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    // EPERM means it exists but is not ours to signal; treat it as alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function linuxGroupAlive(pgid: number): boolean {
  for (const entry of fs.readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // After "pid (comm)": state, ppid, pgrp.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone.
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Stops a server and everything it started. POSIX: SIGTERM to its process group (it was spawned detached, so
 * the group is its own), then SIGKILL to whatever is left after a grace period — also when the leader has
 * already exited, since its children may outlive it. Windows: `taskkill /T /F` by full path.
 */
export async function killProcessTree(child: ChildProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // By full path: a taskkill earlier on PATH is not necessarily Windows' own.
    const taskkill = `${process.env.SystemRoot ?? 'C:\\Windows'}\\System32\\taskkill.exe`;
    await new Promise<void>((resolve) => {
      const killer = spawn(taskkill, ['/pid', String(pid), '/T', '/F'], {
        stdio: 'ignore',
        windowsHide: true,
      });
      killer.on('error', () => {
        child.kill();
        resolve();
      });
      killer.on('exit', () => resolve());
    });
    return;
  }
  if (!signalGroup(pid, 'SIGTERM')) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pid)) return;
    await delay(50);
  }
  signalGroup(pid, 'SIGKILL');
  // Reaping is asynchronous; give the kernel a moment so callers that check afterwards see the tree gone.
  for (let i = 0; i < 20 && groupAlive(pid); i++) await delay(25);
}
