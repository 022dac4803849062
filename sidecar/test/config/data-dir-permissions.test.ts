import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secureDataDir } from '../../src/config/data-dir-permissions';
import { tempDir } from '../support/harness';

// POSIX modes: on Windows secureDataDir only creates the folder.
const posix = process.platform !== 'win32';

let root: string;
let savedUmask: number;

beforeEach(() => {
  savedUmask = process.umask(0o022);
  root = tempDir('secure');
});

afterEach(() => {
  process.umask(savedUmask);
  fs.rmSync(root, { recursive: true, force: true });
});

const mode = (file: string): number => fs.statSync(file).mode & 0o777;

describe.runIf(posix)('secureDataDir', () => {
  it('creates a missing folder and its parents owner-only, and has nothing to say', () => {
    const dir = path.join(root, 'a', 'data');
    expect(secureDataDir(dir)).toBeNull();
    expect(mode(path.join(root, 'a'))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
  });

  it('narrows open entries of an owner-only folder with a note, not a warning (nobody could reach them)', () => {
    fs.writeFileSync(path.join(root, 'cairn.db'), '');
    fs.mkdirSync(path.join(root, 'sessions', 'ses_1', 'tool-calls'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(root, 'sessions', 'ses_1', 'tool-calls', 'result.txt'), '', { mode: 0o640 });
    fs.chmodSync(path.join(root, 'sessions'), 0o700);

    const report = secureDataDir(root);

    expect(report).toMatchObject({ level: 'info', fields: { mode_was: null, narrowed: 4 } });
    expect(report!.message).toContain('the folder itself was owner-only');
    expect(mode(path.join(root, 'cairn.db'))).toBe(0o600);
    // An open entry means an earlier version's tree: it is walked to the bottom.
    expect(mode(path.join(root, 'sessions', 'ses_1', 'tool-calls'))).toBe(0o700);
    expect(mode(path.join(root, 'sessions', 'ses_1', 'tool-calls', 'result.txt'))).toBe(0o600);
  });

  it('once the folder and its entries are owner-only, looks no deeper', () => {
    fs.mkdirSync(path.join(root, 'sessions', 'ses_1'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(root, 'sessions', 'ses_1', 'left.txt'), '');

    expect(secureDataDir(root)).toBeNull();
    // Unreachable by others under owner-only folders; a start does not pay for every tool call's files.
    expect(mode(path.join(root, 'sessions', 'ses_1', 'left.txt'))).toBe(0o644);
  });

  it('warns about an open folder, keeps executables executable and does not follow symlinks', () => {
    fs.chmodSync(root, 0o750);
    fs.writeFileSync(path.join(root, 'run.sh'), '', { mode: 0o755 });
    const outside = tempDir('outside');
    try {
      fs.chmodSync(outside, 0o755);
      fs.writeFileSync(path.join(outside, 'mine.txt'), '');
      fs.symlinkSync(outside, path.join(root, 'linked'));

      const report = secureDataDir(root);

      expect(report).toMatchObject({
        level: 'warn',
        fields: { data_dir: root, mode_was: '0750', narrowed: 1 },
      });
      expect(report!.message).toMatch(
        /open to other users .*\(mode 0750\).*owner-only \(0700\), with 1 entry/,
      );
      expect(mode(root)).toBe(0o700);
      expect(mode(path.join(root, 'run.sh'))).toBe(0o700);
      expect(mode(outside)).toBe(0o755);
      expect(mode(path.join(outside, 'mine.txt'))).toBe(0o644);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
