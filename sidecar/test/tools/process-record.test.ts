import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/tools/builtin/bash';
import { execTool } from '../../src/tools/builtin/exec';
import {
  describeOutcome,
  describeProcess,
  parseStatStartTime,
  processStartTime,
  readProcessRecord,
  stopRecordedProcess,
  verifyProcessRecord,
  writeProcessRecord,
} from '../../src/tools/process-record';
import { runProcess } from '../../src/tools/process-runner';
import { isProcessGone, makeContext, makeTempDir, removeDir, runTool, waitFor } from './tool-context';

const linuxOnly = it.skipIf(process.platform !== 'linux');

// A real stat line (fields 3.. of `cat`), behind a command name that holds spaces and ')'.
const STAT_TAIL = 'S 14878 14878 13475 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 396066 3133440 409 184467440';

describe('process records', () => {
  let dir: string;
  let record: string;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    dir = await makeTempDir('cairn-process-record-');
    record = path.join(dir, 'call', 'process.json');
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.pid !== undefined && !isProcessGone(child.pid)) process.kill(-child.pid, 'SIGKILL');
    }
    await removeDir(dir);
  });

  /** A real `sleep` leading its own process group, as Bash/Exec start their commands. */
  function startSleep(): number {
    const child = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
    children.push(child);
    if (child.pid === undefined) throw new Error('sleep did not start');
    return child.pid;
  }

  it('reads field 22 after the last ")", whatever the command name holds', () => {
    expect(parseStatStartTime(`14957 (cat) ${STAT_TAIL}`)).toBe('396066');
    expect(parseStatStartTime(`14957 (a b) c) (d ) ${STAT_TAIL}`)).toBe('396066');
    expect(parseStatStartTime(`14957 ()) ) ${STAT_TAIL}\n`)).toBe('396066');
    expect(parseStatStartTime('14957 (cat) S 1 2 3')).toBeNull();
    expect(parseStatStartTime('garbage')).toBeNull();
  });

  it('uses the boot id and start time from an injected /proc', () => {
    const proc = path.join(dir, 'proc');
    fs.mkdirSync(path.join(proc, 'sys', 'kernel', 'random'), { recursive: true });
    fs.mkdirSync(path.join(proc, '4242'));
    fs.writeFileSync(path.join(proc, 'sys', 'kernel', 'random', 'boot_id'), 'boot-a\n');
    fs.writeFileSync(path.join(proc, '4242', 'stat'), `4242 (my prog) x) ${STAT_TAIL}\n`);
    const options = { procRoot: proc, platform: 'linux' as const };

    expect(processStartTime(4242, options)).toBe('boot-a:396066');
    const recorded = describeProcess(4242, options);
    expect(recorded).toEqual({ pid: 4242, platform: 'linux', start_time: 'boot-a:396066' });
    expect(verifyProcessRecord(recorded, options)).toBe('verified');
    expect(verifyProcessRecord({ ...recorded, start_time: 'boot-a:396067' }, options)).toBe('unverified');
    // After a reboot every recorded process is gone, whatever now has its pid.
    expect(verifyProcessRecord({ ...recorded, start_time: 'boot-b:396066' }, options)).toBe('gone');
    expect(verifyProcessRecord({ ...recorded, pid: 4343 }, options)).toBe('gone');
    // Elsewhere nothing can be verified.
    expect(verifyProcessRecord(recorded, { ...options, platform: 'darwin' })).toBe('unverified');
    expect(verifyProcessRecord({ ...recorded, platform: 'darwin' }, options)).toBe('unverified');
    expect(describeProcess(4242, { ...options, platform: 'win32' })).toEqual({
      pid: 4242,
      platform: 'win32',
      start_time: null,
    });
  });

  it('writes, reads and rejects records', () => {
    expect(readProcessRecord(record)).toBeNull();
    writeProcessRecord(record, { pid: 1234, platform: 'linux', start_time: 'b:1' });
    expect(readProcessRecord(record)).toEqual({ pid: 1234, platform: 'linux', start_time: 'b:1' });
    expect(fs.readdirSync(path.dirname(record))).toEqual(['process.json']);
    fs.writeFileSync(record, '{"pid": -1, "platform": "linux", "start_time": null}');
    expect(readProcessRecord(record)).toBe('invalid');
    fs.writeFileSync(record, '{"pid": 12');
    expect(readProcessRecord(record)).toBe('invalid');
    expect(stopRecordedProcess(record)).toEqual({ kind: 'unverified', pid: null });
    expect(fs.existsSync(record)).toBe(false);
    expect(stopRecordedProcess(record)).toEqual({ kind: 'none' });
    expect(describeOutcome({ kind: 'none' })).toBe('');
  });

  linuxOnly('does not kill a live process whose start time does not match the record', async () => {
    const pid = startSleep();
    const actual = processStartTime(pid);
    expect(actual).toMatch(/^.+:\d+$/);
    const ticks = Number(actual!.split(':').at(-1));
    writeProcessRecord(record, {
      pid,
      platform: 'linux',
      start_time: actual!.replace(/\d+$/, `${ticks + 1}`),
    });

    const outcome = stopRecordedProcess(record);

    expect(outcome).toEqual({ kind: 'unverified', pid });
    expect(describeOutcome(outcome)).toContain('may still be running');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isProcessGone(pid)).toBe(false);
    process.kill(-pid, 'SIGKILL');
    await waitFor(() => isProcessGone(pid));
  });

  linuxOnly('does not kill a process recorded under another boot id', async () => {
    const pid = startSleep();
    const proc = path.join(dir, 'proc');
    fs.mkdirSync(path.join(proc, 'sys', 'kernel', 'random'), { recursive: true });
    fs.mkdirSync(path.join(proc, String(pid)));
    fs.writeFileSync(path.join(proc, 'sys', 'kernel', 'random', 'boot_id'), 'another-boot\n');
    fs.copyFileSync(`/proc/${pid}/stat`, path.join(proc, String(pid), 'stat'));
    writeProcessRecord(record, describeProcess(pid));

    expect(stopRecordedProcess(record, { procRoot: proc })).toEqual({ kind: 'gone', pid });

    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isProcessGone(pid)).toBe(false);
  });

  linuxOnly('kills the whole process group of a verified record', async () => {
    // A shell leading its group, with a child of its own, like `sleep 1000 & wait` under Bash.
    const shell = spawn('sh', ['-c', 'sleep 1000 & echo $!; wait'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(shell);
    const sleepPid = await new Promise<number>((resolve) => {
      shell.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    });
    writeProcessRecord(record, describeProcess(shell.pid!));

    const outcome = stopRecordedProcess(record);

    expect(outcome).toEqual({ kind: 'stopped', pid: shell.pid });
    expect(describeOutcome(outcome)).toContain('were stopped');
    await waitFor(() => isProcessGone(shell.pid!) && isProcessGone(sleepPid));
    expect(fs.existsSync(record)).toBe(false);
  });

  linuxOnly('runProcess reports the pid of the group it started through onSpawn', async () => {
    const pids: number[] = [];
    const result = await runProcess({
      file: 'sh',
      args: ['-c', 'echo $$'],
      cwd: dir,
      env: process.env,
      onSpawn: (pid) => pids.push(pid),
    });
    expect(pids).toEqual([Number(result.stdout.trim())]);
  });

  linuxOnly('Bash and Exec tell the context which process they started', async () => {
    const started: number[] = [];
    const ctx = {
      ...makeContext({ projectRoot: dir }),
      onProcessStarted: (pid: number) => started.push(pid),
    };

    const bash = await runTool(bashTool, { command: 'echo $$' }, ctx);
    const exec = await runTool(execTool, { program: 'sh', args: ['-c', 'echo $$'] }, ctx);

    expect(started).toEqual([Number(bash.content.trim()), Number(exec.content.trim())]);
  });
});
