import { execFile } from 'node:child_process';
import path from 'node:path';

export interface KillTreeOptions {
  platform?: NodeJS.Platform;
}

/**
 * Kills a process and every process below it (shells, kernels, MCP servers a sidecar started), so
 * nothing outlives the app. Processes that are already gone are not an error.
 */
export async function killProcessTree(pid: number, options: KillTreeOptions = {}): Promise<void> {
  if (!Number.isInteger(pid) || pid <= 0)
    throw new Error(`killProcessTree needs a positive pid, not ${pid}.`);
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') return killWindowsTree(pid);
  return killPosixTree(pid);
}

async function killWindowsTree(pid: number): Promise<void> {
  // /T takes the whole tree, /F does not ask. It fails (exit 128) when the pid is gone: that is fine.
  await new Promise<void>((resolve) => {
    execFile(taskkillPath(), ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
  });
}

async function killPosixTree(root: number): Promise<void> {
  // Freeze before killing: a stopped process cannot fork, so the list cannot grow behind our back.
  // Stopping a parent first also keeps it from reaping or restarting children we are about to kill.
  const members: number[] = [root];
  signal(root, 'SIGSTOP');
  for (let round = 0; round < 5; round += 1) {
    const found = descendants(root, await processTable()).filter((pid) => !members.includes(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      signal(pid, 'SIGSTOP');
      members.push(pid);
    }
  }
  // Deepest first, the root last; SIGKILL works on stopped processes.
  for (const pid of members.slice().reverse()) signal(pid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: already gone. EPERM: not ours to kill; nothing more can be done from here.
  }
}

/** Every descendant of root, parents before their children. */
function descendants(root: number, table: Map<number, number[]>): number[] {
  const found: number[] = [];
  const queue = [root];
  const seen = new Set<number>([root]);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of table.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** parent pid → child pids, from `ps`, which exists on macOS and every Linux. */
function processTable(): Promise<Map<number, number[]>> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      const table = new Map<number, number[]>();
      if (error) return resolve(table);
      for (const line of stdout.split('\n')) {
        const [pid, ppid] = line.trim().split(/\s+/).map(Number);
        if (pid === undefined || ppid === undefined || !Number.isInteger(pid) || !Number.isInteger(ppid))
          continue;
        const siblings = table.get(ppid);
        if (siblings) siblings.push(pid);
        else table.set(ppid, [pid]);
      }
      resolve(table);
    });
  });
}

/** taskkill by its full path: a bare name is looked up in the current folder first on Windows. */
function taskkillPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.win32.join(env.SystemRoot ?? env.windir ?? 'C:\\Windows', 'System32', 'taskkill.exe');
}
