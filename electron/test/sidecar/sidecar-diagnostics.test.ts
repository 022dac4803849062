import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../sidecar/test/support/harness';
import { writeSidecarDiagnostics } from '../../src/sidecar/sidecar-diagnostics';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('writeSidecarDiagnostics', () => {
  it('writes a readable report with reason, exit code, output, versions and paths', () => {
    const root = tempDir('diag');
    dirs.push(root);
    const dir = path.join(root, 'logs', 'nested');
    const time = new Date('2026-03-04T05:06:07.089Z');
    const file = writeSidecarDiagnostics({
      dir,
      reason: 'The sidecar exited (code 3) before it was ready.',
      exitCode: 3,
      outputTail: 'Error: better-sqlite3 was compiled against a different Node.js version\n',
      appVersion: '1.2.3',
      versions: { electron: '41.7.1', node: '24.11.1', chrome: '146.0.7', v8: '14.6' },
      entry: '/app/dist/sidecar/cairn.mjs',
      dataDir: '/home/someone/.cairn',
      secrets: ['super-secret-token-value'],
      time,
    });
    expect(path.dirname(file)).toBe(dir);
    expect(path.basename(file)).toBe('sidecar-failure-2026-03-04T05-06-07-089Z.txt');
    const text = fs.readFileSync(file, 'utf8');
    for (const expected of [
      /Reason:\s+The sidecar exited \(code 3\) before it was ready\./,
      /Exit code:\s+3/,
      /Time:\s+2026-03-04T05:06:07\.089Z/,
      /Cairn:\s+1\.2\.3/,
      /Electron:\s+41\.7\.1/,
      /Node:\s+24\.11\.1/,
      /Chrome:\s+146\.0\.7/,
      new RegExp(`OS:\\s+.+\\(${process.platform} `),
      /Sidecar entry:\s+\/app\/dist\/sidecar\/cairn\.mjs/,
      /Data directory:\s+\/home\/someone\/\.cairn/,
      /compiled against a different Node\.js version/,
      /v8 14\.6/,
    ]) {
      expect(text).toMatch(expected);
    }

    // Same millisecond, second failure: a new file, and secrets are removed even from the output.
    const second = writeSidecarDiagnostics({
      dir,
      reason: 'Gave up.',
      exitCode: null,
      outputTail: 'token super-secret-token-value leaked by a careless log line\n',
      appVersion: '1.2.3',
      versions: {},
      entry: '/app/dist/sidecar/cairn.mjs',
      dataDir: '/home/someone/.cairn',
      secrets: ['super-secret-token-value'],
      time,
    });
    expect(second).not.toBe(file);
    const secondText = fs.readFileSync(second, 'utf8');
    expect(secondText).not.toContain('super-secret-token-value');
    expect(secondText).toContain('token [redacted] leaked');
    expect(secondText).toMatch(/Exit code:\s+none/);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});
