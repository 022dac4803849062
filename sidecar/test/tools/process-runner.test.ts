import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/tools/process-runner';
import { isProcessGone, makeTempDir, removeDir, waitFor } from './tool-context';

const posixOnly = it.skipIf(process.platform === 'win32');
const node = process.execPath;

describe('runProcess', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it('captures stdout, stderr, their interleaving and the exit code, streaming as it goes', async () => {
    const chunks: string[] = [];
    const result = await runProcess({
      file: node,
      args: ['-e', "process.stdout.write('out\\n'); process.stderr.write('err\\n'); process.exit(3)"],
      cwd: dir,
      env: process.env,
      onOutput: (stream, text) => chunks.push(`${stream}:${text}`),
    });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
    });
    expect(result.output).toContain('out\n');
    expect(result.output).toContain('err\n');
    expect(chunks.join('')).toContain('stdout:out');
    expect(chunks.join('')).toContain('stderr:err');
  });

  it('runs in cwd with the given env and no shell', async () => {
    const result = await runProcess({
      file: node,
      args: ['-e', 'console.log(process.cwd(), process.env.ONLY_THIS, process.argv[1])', '$HOME *'],
      cwd: dir,
      env: { ONLY_THIS: 'here', PATH: process.env.PATH },
    });
    expect(result.stdout.trim()).toBe(`${dir} here $HOME *`);
  });

  it('caps captured output, keeping the start and the end', async () => {
    const result = await runProcess({
      file: node,
      args: ['-e', "process.stdout.write('A'.repeat(5000) + 'B'.repeat(5000) + 'END')"],
      cwd: dir,
      env: process.env,
      maxOutputChars: 1000,
    });
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith('A'.repeat(500))).toBe(true);
    expect(result.stdout.endsWith('END')).toBe(true);
    expect(result.stdout).toMatch(/characters of output omitted/);
    expect(result.stdout.length).toBeLessThan(1200);
  });

  it('rejects when the program does not exist', async () => {
    await expect(
      runProcess({ file: path.join(dir, 'no-such-program'), args: [], cwd: dir, env: process.env }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runProcess({
      file: node,
      args: ['-e', ''],
      cwd: dir,
      env: process.env,
      signal: controller.signal,
    });
    expect(result).toMatchObject({ cancelled: true, exitCode: null });
  });

  posixOnly('kills the whole tree on timeout', async () => {
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'sleep 1000 & echo $! > pid; wait'],
      cwd: dir,
      env: process.env,
      timeoutMs: 300,
    });
    expect(result.timedOut).toBe(true);
    const pid = Number(await fs.readFile(path.join(dir, 'pid'), 'utf8'));
    await waitFor(() => isProcessGone(pid));
  });

  posixOnly('resolves after a normal exit even when a background grandchild holds the pipes', async () => {
    const result = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'sleep 1000 & echo $!'],
      cwd: dir,
      env: process.env,
    });
    expect(result.exitCode).toBe(0);
    const pid = Number(result.stdout.trim());
    expect(isProcessGone(pid)).toBe(false);
    process.kill(pid, 'SIGKILL');
  });
});
