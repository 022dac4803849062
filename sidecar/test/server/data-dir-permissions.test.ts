import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations';
import { type Harness, startHarness, tempDir } from '../support/harness';
import { STDLIB_KERNEL_ENV, toolResultJson } from '../support/kernel-harness';

// A data directory an earlier Cairn left under umask 022: the folder, its files and folders open to others.
let savedUmask: number;
let dataDir: string;
let outside: string;
let stderr: MockInstance<typeof process.stderr.write>;
let h: Harness;

const mode = (file: string): number => fs.statSync(file).mode & 0o777;
const OLD_CALL = path.join('sessions', 'ses_old', 'tool-calls', 'call_old');

function seedEarlierVersion(): void {
  fs.chmodSync(dataDir, 0o755);
  // Written the way earlier versions did: SQLite's own file mode (0644 under umask 022), one schema back.
  const db = new Database(path.join(dataDir, 'cairn.db'));
  db.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS.slice(0, -1)) {
    db.exec(migration.sql);
    db.pragma(`user_version = ${migration.version}`);
  }
  db.close();
  // A lock from an earlier boot (stale), as the earlier lock code made it: 0644.
  const lock = {
    pid: 1,
    hostname: os.hostname(),
    command: 'cairn serve',
    started_at: 'earlier',
    booted_at: 0,
  };
  fs.writeFileSync(path.join(dataDir, 'cairn.lock'), `${JSON.stringify(lock)}\n`);
  fs.writeFileSync(path.join(dataDir, 'token'), `${'t'.repeat(43)}\n`);
  fs.mkdirSync(path.join(dataDir, 'logs'));
  fs.writeFileSync(path.join(dataDir, 'logs', 'cairn.log'), '');
  fs.writeFileSync(path.join(dataDir, 'logs', 'cairn.1.log'), '');
  fs.mkdirSync(path.join(dataDir, OLD_CALL), { recursive: true });
  fs.writeFileSync(path.join(dataDir, OLD_CALL, 'result.txt'), 'an old result');
  // A symlink to the user's own file elsewhere: its target is not Cairn's to narrow.
  fs.writeFileSync(path.join(outside, 'shared.txt'), 'mine');
  fs.symlinkSync(path.join(outside, 'shared.txt'), path.join(dataDir, 'sessions', 'link-to-shared'));
}

/** Every entry under `dir` (symlinks not followed) whose mode lets group or other users in. */
function openEntries(dir: string): { found: string[]; open: string[] } {
  const found: string[] = [];
  const open: string[] = [];
  const walk = (folder: string): void => {
    for (const name of fs.readdirSync(folder)) {
      const full = path.join(folder, name);
      const stats = fs.lstatSync(full);
      if (stats.isSymbolicLink()) continue;
      const relative = path.relative(dir, full);
      found.push(relative);
      if ((stats.mode & 0o077) !== 0) open.push(`${relative} (0${(stats.mode & 0o777).toString(8)})`);
      if (stats.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return { found, open };
}

function logLines(): { level: string; msg: string; mode_was?: string }[] {
  return fs
    .readFileSync(path.join(dataDir, 'logs', 'cairn.log'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

beforeAll(async () => {
  savedUmask = process.umask(0o022);
  dataDir = tempDir('permissions');
  outside = tempDir('outside');
  seedEarlierVersion();
  stderr = vi.spyOn(process.stderr, 'write');
  // No CAIRN_TOKEN: the server reads the token file the earlier version left.
  h = await startHarness({ dataDir, env: { ...STDLIB_KERNEL_ENV, CAIRN_TOKEN: undefined } });
});

afterAll(async () => {
  await h?.close();
  stderr?.mockRestore();
  process.umask(savedUmask);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('the data directory is owner-only', () => {
  it('narrows what an earlier version left open at start, and warns once in the log and on stderr', () => {
    expect(mode(dataDir)).toBe(0o700);
    for (const file of ['cairn.db', 'cairn.lock', 'token', 'logs/cairn.log', 'logs/cairn.1.log']) {
      expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    }
    expect(mode(path.join(dataDir, 'logs'))).toBe(0o700);
    // An earlier version's tree is walked to the bottom (once: it is owner-only from now on).
    expect(mode(path.join(dataDir, OLD_CALL))).toBe(0o700);
    expect(mode(path.join(dataDir, OLD_CALL, 'result.txt'))).toBe(0o600);
    // The copy made before migrating does not take the old file's open mode.
    const backups = fs.readdirSync(dataDir).filter((name) => /^cairn\.db\.v\d+-.*\.bak$/.test(name));
    expect(backups).toHaveLength(1);
    expect(mode(path.join(dataDir, backups[0]!))).toBe(0o600);
    expect(mode(path.join(outside, 'shared.txt'))).toBe(0o644);

    const warnings = logLines().filter((line) => /open to other users/.test(line.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', mode_was: '0755' });
    expect(warnings[0]!.msg).toContain(dataDir);
    const printed = stderr.mock.calls
      .map(([chunk]) => String(chunk))
      .filter((s) => /open to other users/.test(s));
    expect(printed).toEqual([`cairn: ${warnings[0]!.msg}\n`]);
  });

  it('creates every file and folder it writes owner-only under umask 022, and leaves the umask to its tools', async () => {
    const { sessionId } = await h.newSession();
    const calls = path.join(dataDir, 'sessions', sessionId, 'tool-calls');
    const page = 'class Page:\n    def _repr_html_(self):\n        return "<b>owner only</b>"\n';
    h.model.enqueue(
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            // While it runs, its call's process record exists (written just after the spawn, hence the wait
            // for it, bounded so that a missing record fails the stat): Bash reports its mode and the umask.
            input: {
              command:
                `for i in $(seq 500); do [ -e ${calls}/*/process.json ] && break; sleep 0.01; done; ` +
                `stat -c 'record %a' ${calls}/*/process.json; umask; echo hi > by-bash.txt`,
            },
          },
        ],
      },
      {
        content: [
          {
            type: 'tool_use',
            name: 'execute_code',
            input: { code: `${page}print("x" * 7000)\nPage()` },
          },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    );
    const turn = await h.startTurn(sessionId, 'write things');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const bash = JSON.stringify(h.model.requests[1]!.body.messages.at(-1));
    expect(bash).toContain('record 600');
    expect(bash).toContain('0022');
    expect(mode(path.join(h.projectDir, 'by-bash.txt'))).toBe(0o644);
    const kernel = toolResultJson(h, 2) as { success: boolean; files: { mime: string }[]; stdout: string };
    expect(kernel.success).toBe(true);
    expect(kernel.files.map((f) => f.mime)).toEqual(['text/html']);
    expect(kernel.stdout).toContain('stdout.txt');

    const { found, open } = openEntries(dataDir);
    const session = path.join('sessions', sessionId);
    for (const pattern of [
      /^cairn\.db-wal$/,
      /^cairn\.db-shm$/,
      new RegExp(`^${session}/tool-calls/[^/]+/status\\.json$`),
      new RegExp(`^${session}/tool-calls/[^/]+/result\\.txt$`),
      new RegExp(`^${session}/tool-calls/[^/]+/stdout\\.txt$`),
      new RegExp(`^${session}/artifacts/art_[^/]+\\.html$`),
      new RegExp(`^${session}/kernels/[^/]+/executions\\.jsonl$`),
    ]) {
      expect(found.filter((f) => pattern.test(f)).length, String(pattern)).toBeGreaterThan(0);
    }
    expect(open).toEqual([]);
  });
});
