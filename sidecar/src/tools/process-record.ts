import fs from 'node:fs';
import path from 'node:path';
import { writeOwnerOnlyFile } from '../config/owner-only-files';

/**
 * A note, kept in a tool call's folder while its process runs, of the process group Bash/Exec started, so
 * that after a crash of the sidecar the next start can stop what the crash left running. `start_time`
 * identifies that exact process, so a pid the system has since given to another process is never taken
 * for it: on Linux `<boot id>:<start time in clock ticks since boot>`; null where that cannot be read.
 */
export interface ProcessRecord {
  pid: number;
  platform: NodeJS.Platform;
  start_time: string | null;
}

/** What stopping a recorded process came to. */
export type RecordedProcessOutcome =
  /** No record: no process was running, or it ended normally. */
  | { kind: 'none' }
  /** The recorded process no longer exists; nothing was signalled. */
  | { kind: 'gone'; pid: number }
  /** The process (and its group) was verified and killed. */
  | { kind: 'stopped'; pid: number }
  /** A record exists but it cannot be shown to name the same process; nothing was signalled. */
  | { kind: 'unverified'; pid: number | null }
  /** Verified, but the kill failed (e.g. EPERM). */
  | { kind: 'failed'; pid: number; error: string };

export interface ProcessRecordOptions {
  /** Where procfs is mounted; tests point it at a fake tree. */
  procRoot?: string;
  platform?: NodeJS.Platform;
}

export const PROCESS_RECORD_FILE = 'process.json';

/**
 * The start time (field 22 of `/proc/<pid>/stat`, clock ticks since boot) from a stat line. The command
 * name in parentheses may hold spaces and ')', so the fields are counted after the last ')'.
 */
export function parseStatStartTime(stat: string): string | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  // After ')' comes field 3 (state), so field 22 is the 20th.
  const field = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/)[19];
  return field !== undefined && /^\d+$/.test(field) ? field : null;
}

/**
 * What identifies the live process `pid`: `<boot id>:<start ticks>` on Linux, null elsewhere or when it
 * cannot be read (no such process). A zombie still has its start time, and its pid is not reused yet.
 */
export function processStartTime(pid: number, options: ProcessRecordOptions = {}): string | null {
  if ((options.platform ?? process.platform) !== 'linux') return null;
  const bootId = readBootId(options);
  if (bootId === null) return null;
  try {
    const ticks = parseStatStartTime(
      fs.readFileSync(path.join(procRoot(options), String(pid), 'stat'), 'utf8'),
    );
    return ticks === null ? null : `${bootId}:${ticks}`;
  } catch {
    return null;
  }
}

/** This boot's id (Linux), which changes with every reboot. */
function readBootId(options: ProcessRecordOptions): string | null {
  try {
    const id = fs.readFileSync(path.join(procRoot(options), 'sys', 'kernel', 'random', 'boot_id'), 'utf8');
    return id.trim() === '' ? null : id.trim();
  } catch {
    return null;
  }
}

function procRoot(options: ProcessRecordOptions): string {
  return options.procRoot ?? '/proc';
}

/** The record for a process that has just started. */
export function describeProcess(pid: number, options: ProcessRecordOptions = {}): ProcessRecord {
  return {
    pid,
    platform: options.platform ?? process.platform,
    start_time: processStartTime(pid, options),
  };
}

/** Writes the record atomically (a crash never leaves half a file). */
export function writeProcessRecord(file: string, record: ProcessRecord): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeOwnerOnlyFile(temp, `${JSON.stringify(record)}\n`);
  fs.renameSync(temp, file);
}

/** The record in `file`: null when there is none, 'invalid' when it cannot be understood. */
export function readProcessRecord(file: string): ProcessRecord | 'invalid' | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'invalid';
  }
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { pid, platform, start_time } = value;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 1) return 'invalid';
    if (typeof platform !== 'string') return 'invalid';
    if (start_time !== null && typeof start_time !== 'string') return 'invalid';
    return { pid, platform: platform as NodeJS.Platform, start_time };
  } catch {
    return 'invalid';
  }
}

export function removeProcessRecord(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Whether the record names a process that exists now and is the very one recorded: same platform (Linux
 * only), same boot, same start time. 'gone' when no process has that pid, or the system has rebooted since.
 */
export function verifyProcessRecord(
  record: ProcessRecord,
  options: ProcessRecordOptions = {},
): 'verified' | 'gone' | 'unverified' {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux' || record.platform !== 'linux' || record.start_time === null) {
    // Elsewhere identity cannot be checked, but a pid nobody holds is certainly gone.
    return options.platform === undefined && !pidExists(record.pid) ? 'gone' : 'unverified';
  }
  const bootId = readBootId(options);
  if (bootId === null) return 'unverified';
  if (!record.start_time.startsWith(`${bootId}:`)) return 'gone';
  const current = processStartTime(record.pid, options);
  if (current === record.start_time) return 'verified';
  const exists = fs.existsSync(path.join(procRoot(options), String(record.pid)));
  return current === null && !exists ? 'gone' : 'unverified';
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILLs the process group led by `pid`, or `pid` alone when it has left its group. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
}

/**
 * After a crash: kills the process group recorded in `file` if, and only if, it is verified to be the
 * recorded process, then removes the record. Never signals anything it could not verify.
 */
export function stopRecordedProcess(
  file: string,
  options: ProcessRecordOptions = {},
): RecordedProcessOutcome {
  const record = readProcessRecord(file);
  if (record === null) return { kind: 'none' };
  const outcome = stopVerified(record, options);
  try {
    removeProcessRecord(file);
  } catch {
    // The call is finished either way; a stale record is only read for unfinished calls.
  }
  return outcome;
}

function stopVerified(
  record: ProcessRecord | 'invalid',
  options: ProcessRecordOptions,
): RecordedProcessOutcome {
  if (record === 'invalid') return { kind: 'unverified', pid: null };
  const state = verifyProcessRecord(record, options);
  if (state === 'gone') return { kind: 'gone', pid: record.pid };
  if (state === 'unverified') return { kind: 'unverified', pid: record.pid };
  try {
    killProcessGroup(record.pid);
    return { kind: 'stopped', pid: record.pid };
  } catch (err) {
    return { kind: 'failed', pid: record.pid, error: err instanceof Error ? err.message : String(err) };
  }
}

/** A sentence for the interrupted call's result, or '' when there is nothing to say. */
export function describeOutcome(outcome: RecordedProcessOutcome): string {
  switch (outcome.kind) {
    case 'stopped':
      return `Its processes (process group ${outcome.pid}) were still running and were stopped.`;
    case 'unverified':
      return (
        `A process it started${outcome.pid === null ? '' : ` (pid ${outcome.pid})`} may still be running: ` +
        'Cairn could not verify it was the same process, so it left it alone.'
      );
    case 'failed':
      return `Its processes (process group ${outcome.pid}) may still be running: stopping them failed (${outcome.error}).`;
    default:
      return '';
  }
}
