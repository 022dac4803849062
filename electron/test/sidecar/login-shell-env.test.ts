import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killPid, processGone, readPidFile } from '../../../sidecar/test/cli/cli-process';
import { tempDir } from '../../../sidecar/test/support/harness';
import { readLoginShellPath } from '../../src/sidecar/login-shell-env';
import { waitUntil } from './wait-until';

const homes: string[] = [];
const strays: (number | null)[] = [];

afterEach(() => {
  for (const pid of strays.splice(0)) killPid(pid);
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

/** A throwaway HOME holding the given rc files, and the minimal environment a GUI launch has. */
function home(files: Record<string, string>): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('login-home');
  homes.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return { dir, env: { HOME: dir, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } };
}

const posix = process.platform !== 'win32';

describe.skipIf(!posix)('readLoginShellPath with real shells', () => {
  it("reads bash's login PATH from .bash_profile past the noise rc files print", async () => {
    const { dir, env } = home({
      '.bash_profile': [
        'echo "Welcome back! PATH is about to change"',
        'export PATH="$HOME/tools/bin:$PATH:$HOME/later/bin"',
        'echo "noise on stderr" >&2',
        'printf "no newline at the end"',
      ].join('\n'),
    });
    const result = await readLoginShellPath({ shell: '/bin/bash', env, timeoutMs: 20_000 });
    if (result === null) throw new Error('no PATH read');
    const entries = result.split(':');
    expect(entries[0]).toBe(path.join(dir, 'tools', 'bin'));
    expect(entries).toContain(path.join(dir, 'later', 'bin'));
    expect(entries).toContain('/usr/bin');
    expect(result).not.toMatch(/Welcome|noise|newline/);
  });

  it('uses $SHELL when no shell is given, here sh reading .profile', async () => {
    const { dir, env } = home({
      '.profile': 'echo "hello from .profile"\nPATH="$HOME/from-profile:$PATH"; export PATH\n',
    });
    const result = await readLoginShellPath({ env: { ...env, SHELL: '/bin/sh' }, timeoutMs: 20_000 });
    expect(result?.split(':')[0]).toBe(path.join(dir, 'from-profile'));
  });

  it('gives up on a slow rc file at the timeout and leaves no shell or child of it behind', async () => {
    const { dir, env } = home({
      '.bash_profile': [
        'echo $$ > "$HOME/shell.pid"',
        `sh -c 'echo $$ > "$HOME/sleep.pid"; exec sleep 120'`,
        'export PATH="$HOME/never:$PATH"',
      ].join('\n'),
    });
    const startedAt = Date.now();
    const result = await readLoginShellPath({ shell: '/bin/bash', env, timeoutMs: 1500 });
    const elapsed = Date.now() - startedAt;
    expect(result).toBeNull();
    // It returned because of the timeout, well before the rc file's sleep would have ended.
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(60_000);
    const shellPid = readPidFile(path.join(dir, 'shell.pid'));
    const sleepPid = readPidFile(path.join(dir, 'sleep.pid'));
    strays.push(shellPid, sleepPid);
    expect(shellPid).not.toBeNull();
    expect(sleepPid).not.toBeNull();
    // SIGKILL lands asynchronously, so allow the kernel a moment (a bound, not a speed claim).
    await waitUntil(
      'the shell and its sleep are gone',
      () => processGone(shellPid!) && processGone(sleepPid!),
      5000,
    );
  });

  it('returns null for a shell that exits without answering, or does not exist', async () => {
    const { env } = home({ '.bash_profile': 'exit 3\n' });
    expect(await readLoginShellPath({ shell: '/bin/bash', env, timeoutMs: 20_000 })).toBeNull();
    expect(await readLoginShellPath({ shell: '/no/such/shell', env, timeoutMs: 20_000 })).toBeNull();
  });
});

describe('readLoginShellPath on Windows', () => {
  it('returns null without starting anything (GUI apps inherit PATH there)', async () => {
    const result = await readLoginShellPath({
      platform: 'win32',
      spawnImpl: (() => {
        throw new Error('must not spawn on Windows');
      }) as never,
    });
    expect(result).toBeNull();
  });
});
