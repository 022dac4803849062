import type { ChildProcess } from 'node:child_process';
import { groupAlive, signalGroup, taskkillTree } from '../process/process-group';

/** How long a server's process tree gets after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 2_000;

// Not unref'd: the close is awaited, and with the server's pipes gone an unref'd timer may be all that is left,
// so Node would end a `cairn run` mid-close (exit 13, a top-level await never settled).
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Stops a server and everything it started. POSIX: SIGTERM to its process group (it was spawned detached, so
 * the group is its own), then SIGKILL to whatever is left after a grace period — also when the leader has
 * already exited, since its children may outlive it. Windows: `taskkill /T /F` by full path.
 */
export async function killProcessTree(child: ChildProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    if (!(await taskkillTree(pid))) child.kill();
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
