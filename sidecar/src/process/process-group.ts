import { spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * The primitives for stopping a child with everything it started, shared by the shell tools, the Python
 * kernels and the MCP servers. POSIX: each child is spawned detached, so it leads a process group of its own
 * and a signal to the group reaches its children. Windows: `taskkill /T /F`.
 */

/** Signals the process group led by `pid`; false when there is no such group (or it is not ours). */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone.
  }
}

/**
 * Windows: ends `pid` and its descendants with taskkill, by full path (a taskkill earlier on PATH is not
 * necessarily Windows' own). Resolves when taskkill has finished; false when it could not run.
 */
export function taskkillTree(pid: number): Promise<boolean> {
  const taskkill = `${process.env.SystemRoot ?? 'C:\\Windows'}\\System32\\taskkill.exe`;
  return new Promise((resolve) => {
    const killer = spawn(taskkill, ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', () => resolve(false));
    killer.on('exit', () => resolve(true));
  });
}

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
  // Throws without /proc, so the caller falls back to signal 0.
  return groupMembers(pgid, fs.readdirSync('/proc')).length > 0;
}

/**
 * Signals every process of the group led by `pgid` but the leader itself (Linux, via /proc): for a command
 * under bubblewrap, whose leader is bwrap, which SIGINT would end together with the whole sandbox. False when
 * no member was signalled.
 */
export function signalGroupExceptLeader(pgid: number, signal: NodeJS.Signals): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return false;
  }
  let sent = false;
  for (const pid of groupMembers(pgid, entries)) {
    if (pid === pgid) continue;
    try {
      process.kill(pid, signal);
      sent = true;
    } catch {
      // exited meanwhile
    }
  }
  return sent;
}

/** The live (not zombie) processes of the group led by `pgid`, read from /proc's entries. */
function groupMembers(pgid: number, entries: readonly string[]): number[] {
  const members: number[] = [];
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // After "pid (comm)": state, ppid, pgrp.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
  }
  return members;
}
