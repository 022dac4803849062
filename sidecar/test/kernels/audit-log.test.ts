import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/kernels/audit-log';
import { DEFAULT_LIMITS, type ExecutionResult } from '../../src/kernels/kernel-types';
import { silentLogger } from '../../src/log/logger';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function result(executionId: string): ExecutionResult {
  return {
    executionId,
    kernel: 'default',
    success: true,
    stdout: 'out\n',
    stderr: '',
    returnValue: { text: '2', artifacts: [] },
    displays: [],
    error: null,
    executionTimeMs: 1,
    activeTimeMs: 1,
    limit: null,
    stateLost: null,
    kernelExit: null,
  };
}

/** Whether this process holds the file open (Linux: /proc/self/fd). */
function heldOpen(file: string): boolean {
  return fs.readdirSync('/proc/self/fd').some((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });
}

describe('AuditLog', () => {
  it('writes a line per execution, owner-only, keeps the file open between lines and releases it on close', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
    dirs.push(dir);
    const log = new AuditLog(path.join(dir, 'kernels', 'default'), silentLogger);
    const record = (id: string) =>
      log.record({ startedAt: new Date(0), code: '1+1', limits: DEFAULT_LIMITS, result: result(id) });
    record('exe_1');
    record('exe_2');
    expect(heldOpen(log.file)).toBe(true);
    expect(fs.statSync(log.file).mode & 0o777).toBe(0o600);

    log.close();
    expect(heldOpen(log.file)).toBe(false);
    // A cell that ends with its kernel is still recorded, without holding the file again.
    record('exe_3');
    expect(heldOpen(log.file)).toBe(false);
    const lines = fs
      .readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.execution_id)).toEqual(['exe_1', 'exe_2', 'exe_3']);
    expect(lines[0]).toMatchObject({ code: '1+1', success: true, return_value: '2', stdout: 'out\n' });
  });

  it('never throws: a folder that cannot be made is logged and the next line tries again', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'));
    dirs.push(dir);
    const blocker = path.join(dir, 'kernels');
    fs.writeFileSync(blocker, 'a file where the folder should be');
    const log = new AuditLog(path.join(blocker, 'default'), silentLogger);
    expect(() =>
      log.record({ startedAt: new Date(0), code: 'x', limits: DEFAULT_LIMITS, result: result('exe_1') }),
    ).not.toThrow();
    fs.rmSync(blocker);
    log.record({ startedAt: new Date(0), code: 'y', limits: DEFAULT_LIMITS, result: result('exe_2') });
    expect(fs.readFileSync(log.file, 'utf8')).toContain('"exe_2"');
    log.close();
  });
});
