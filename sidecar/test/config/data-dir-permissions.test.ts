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
    fs.mkdirSync(path.join(root, 'sessions', 'ses_1'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(root, 'sessions', 'ses_1', 'run.sh'), '', { mode: 0o755 });
    const outside = tempDir('outside');
    try {
      fs.chmodSync(outside, 0o755);
      fs.writeFileSync(path.join(outside, 'mine.txt'), '');
      fs.symlinkSync(outside, path.join(root, 'sessions', 'linked'));

      const report = secureDataDir(root);

      expect(report).toMatchObject({
        level: 'warn',
        fields: { data_dir: root, mode_was: '0750', narrowed: 3 },
      });
      expect(report!.message).toMatch(
        /open to other users .*\(mode 0750\).*owner-only \(0700\), with 3 entries/,
      );
      expect(mode(root)).toBe(0o700);
      expect(mode(path.join(root, 'sessions', 'ses_1', 'run.sh'))).toBe(0o700);
      expect(mode(outside)).toBe(0o755);
      expect(mode(path.join(outside, 'mine.txt'))).toBe(0o644);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("touches only Cairn's own entries in a folder that holds others' files, and says so", () => {
    // `--data-dir .` in a project: the project's files and the folder keep their modes.
    fs.chmodSync(root, 0o755);
    fs.writeFileSync(path.join(root, 'README.md'), '', { mode: 0o644 });
    fs.mkdirSync(path.join(root, 'src'), { mode: 0o755 });
    fs.writeFileSync(path.join(root, 'src', 'app.ts'), '');
    fs.chmodSync(path.join(root, 'src', 'app.ts'), 0o664);
    fs.writeFileSync(path.join(root, 'cairn.db'), '', { mode: 0o644 });
    fs.writeFileSync(path.join(root, 'cairn.db.v3-2026-01-01T00-00-00-000Z.bak'), '', { mode: 0o644 });
    fs.writeFileSync(path.join(root, 'token'), '', { mode: 0o644 });
    fs.mkdirSync(path.join(root, 'logs'), { mode: 0o755 });
    fs.writeFileSync(path.join(root, 'logs', 'cairn.log'), '', { mode: 0o644 });

    const report = secureDataDir(root);

    expect(report).toMatchObject({
      level: 'warn',
      fields: { mode_was: null, left_open: '0755', not_cairns: 2, narrowed: 5 },
    });
    expect(report!.message).toContain("holds files that are not Cairn's (README.md, src)");
    expect(report!.message).toContain('CAIRN_DATA_DIR');
    expect(mode(root)).toBe(0o755);
    expect(mode(path.join(root, 'README.md'))).toBe(0o644);
    expect(mode(path.join(root, 'src'))).toBe(0o755);
    expect(mode(path.join(root, 'src', 'app.ts'))).toBe(0o664);
    for (const own of ['cairn.db', 'cairn.db.v3-2026-01-01T00-00-00-000Z.bak', 'token', 'logs/cairn.log']) {
      expect(mode(path.join(root, own))).toBe(0o600);
    }
    expect(mode(path.join(root, 'logs'))).toBe(0o700);
  });

  it("counts a file browser's litter as nobody's, and narrows a folder with only that beside Cairn's", () => {
    fs.chmodSync(root, 0o755);
    fs.writeFileSync(path.join(root, '.DS_Store'), '', { mode: 0o644 });
    fs.writeFileSync(path.join(root, 'cairn.db'), '', { mode: 0o600 });

    expect(secureDataDir(root)).toMatchObject({ level: 'warn', fields: { mode_was: '0755' } });
    expect(mode(root)).toBe(0o700);
    expect(mode(path.join(root, '.DS_Store'))).toBe(0o644);
  });
});
