import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killPid, processGone } from '../../../sidecar/test/cli/cli-process';
import { killProcessTree } from '../../src/sidecar/kill-tree';
import { waitUntil } from './wait-until';

const TREE_SCRIPT = fileURLToPath(new URL('./fixtures/process-tree.mjs', import.meta.url));
const strays: number[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const pid of strays.splice(0)) killPid(pid);
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function startTree(): Promise<{ root: number; shell: number; sleeper: number }> {
  const child = spawn(process.execPath, [TREE_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the tree's root exited early (code ${code})`)));
    child.stdout?.setEncoding('utf8').once('data', (line: string) => {
      const [shell, sleeper] = line.trim().split(' ').map(Number);
      if (!shell || !sleeper || child.pid === undefined) return reject(new Error(`unexpected line: ${line}`));
      strays.push(shell, sleeper);
      resolve({ root: child.pid, shell, sleeper });
    });
  });
}

describe.skipIf(process.platform === 'win32')('killProcessTree on POSIX', () => {
  it('kills a real process tree, including a grandchild in its own session, and nothing else', async () => {
    const bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
    children.push(bystander);
    const tree = await startTree();
    for (const pid of [tree.root, tree.shell, tree.sleeper])
      expect(processGone(pid), `${pid} alive`).toBe(false);

    await killProcessTree(tree.root);

    await waitUntil('the root, the shell and the sleeper are gone', () =>
      [tree.root, tree.shell, tree.sleeper].every(processGone),
    );
    expect(processGone(bystander.pid!)).toBe(false);
    expect(processGone(process.pid)).toBe(false);
  });

  it('tolerates a process that is already gone', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    await expect(killProcessTree(pid)).resolves.toBeUndefined();
  });

  it('refuses a pid that is not a process id', async () => {
    await expect(killProcessTree(0)).rejects.toThrow(/positive pid/);
    await expect(killProcessTree(-1)).rejects.toThrow(/positive pid/);
  });
});
