import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnError } from '../../src/errors';
import { type Db, openDatabase } from '../../src/store/database';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from '../../src/store/migrations';
import { ProjectsRepo } from '../../src/store/projects-repo';

const TABLES = [
  'context_versions',
  'events',
  'messages',
  'model_configs',
  'projects',
  'questions',
  'sessions',
  'settings',
  'tool_calls',
  'turns',
];

/** Today's schema; the test migrations below add one version on top of it. */
const BASE = MIGRATIONS;
const CURRENT = LATEST_SCHEMA_VERSION;
const NEXT = LATEST_SCHEMA_VERSION + 1;

const V2: Migration = {
  version: NEXT,
  description: 'test: session notes',
  sql: `
ALTER TABLE sessions ADD COLUMN notes TEXT;
CREATE TABLE bookmarks (id TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE);
`,
};

let dir: string;
let file: string;
const opened: Db[] = [];

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-migrations-')));
  file = path.join(dir, 'cairn.db');
});

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(options?: Parameters<typeof openDatabase>[1]): Db {
  const db = openDatabase(file, options);
  opened.push(db);
  return db;
}

/** How many descriptors this process holds on the file (Linux /proc). */
function openHandles(target: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === target) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

const userVersion = (db: Db): number => db.pragma('user_version', { simple: true }) as number;

const tableNames = (db: Db): string[] =>
  (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);

function seed(db: Db): void {
  db.prepare(
    "INSERT INTO projects (id, path, name, created_at, last_opened_at) VALUES ('prj_1', '/tmp/p', 'p', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')",
  ).run();
  db.prepare(
    "INSERT INTO sessions (id, project_id, title, created_at, updated_at) VALUES ('ses_1', 'prj_1', 'First', 'a', 'a')",
  ).run();
  db.prepare("INSERT INTO settings VALUES ('theme', '\"dark\"')").run();
}

/** Writes a file the way a newer Cairn would have left it: a higher user_version, closed cleanly. */
function writeNewer(version: number, journalMode: 'wal' | 'delete'): void {
  const db = new Database(file);
  db.pragma(`journal_mode = ${journalMode}`);
  db.exec('CREATE TABLE future_things (id INTEGER PRIMARY KEY, what TEXT)');
  db.prepare('INSERT INTO future_things (what) VALUES (?)').run('from the future');
  db.pragma(`user_version = ${version}`);
  db.close();
}

describe('openDatabase', () => {
  it('gives a fresh database the latest schema version and every table', () => {
    const db = open();
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)!.version);
    expect(userVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(tableNames(db)).toEqual(expect.arrayContaining(TABLES));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('finds a tool call by its session and tool_use id through an index, not a scan of every call', () => {
    const db = open();
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT * FROM tool_calls WHERE session_id = ? AND tool_use_id = ? ORDER BY rowid DESC LIMIT 1',
      )
      .all('s', 'u') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toContain('USING INDEX tool_calls_by_use');
  });

  it('creates the parent directory of the file', () => {
    file = path.join(dir, 'nested', 'deeper', 'cairn.db');
    const db = open();
    expect(userVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(fs.existsSync(file)).toBe(true);
  });

  it.runIf(process.platform !== 'win32')(
    'makes the file owner-only under umask 022 (SQLite gives -wal and -shm its mode), and the backup too',
    () => {
      const mode = (f: string) => fs.statSync(f).mode & 0o777;
      const umask = process.umask(0o022);
      try {
        const v1 = open({ migrations: BASE });
        for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
        v1.close();
        fs.chmodSync(file, 0o644); // as an earlier version left it
        const backups: string[] = [];
        open({ migrations: [...BASE, V2], onBackup: (backup) => backups.push(backup) });
        expect(backups).toHaveLength(1);
        expect(mode(backups[0]!)).toBe(0o600);
      } finally {
        process.umask(umask);
      }
    },
  );

  it('opens an up-to-date database again without error, change, or backup', () => {
    const first = open();
    seed(first);
    first.close();
    const onBackup = vi.fn();
    const second = open({ onBackup });
    expect(userVersion(second)).toBe(LATEST_SCHEMA_VERSION);
    expect(tableNames(second)).toEqual(expect.arrayContaining(TABLES));
    expect(second.prepare('SELECT title FROM sessions WHERE id = ?').get('ses_1')).toEqual({
      title: 'First',
    });
    expect(second.prepare("SELECT value FROM settings WHERE key = 'theme'").get()).toEqual({
      value: '"dark"',
    });
    second.close();
    const third = open({ onBackup });
    expect(userVersion(third)).toBe(LATEST_SCHEMA_VERSION);
    expect(third.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 1 });
    expect(onBackup).not.toHaveBeenCalled();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });

  it('copies a v1 database aside before migrating it to v2, and keeps the data', () => {
    const v1 = open({ migrations: BASE });
    expect(userVersion(v1)).toBe(CURRENT);
    seed(v1);
    v1.close();

    const backups: string[] = [];
    const db = open({
      migrations: [...BASE, V2],
      onBackup: (backup) => {
        // Called before the migration runs: the live file is still v1 at this point.
        const probe = new Database(file, { readonly: true });
        backups.push(backup);
        expect(probe.pragma('user_version', { simple: true })).toBe(CURRENT);
        probe.close();
      },
    });

    expect(backups).toHaveLength(1);
    const backup = backups[0]!;
    expect(path.dirname(backup)).toBe(dir);
    expect(path.basename(backup).startsWith('cairn.db')).toBe(true);
    expect(backup.endsWith('.bak')).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.bak'))).toEqual([path.basename(backup)]);

    // The migrated file: v2, the new column and table, the old rows.
    expect(userVersion(db)).toBe(NEXT);
    expect(tableNames(db)).toEqual(expect.arrayContaining([...TABLES, 'bookmarks']));
    expect(db.prepare('SELECT title, notes FROM sessions WHERE id = ?').get('ses_1')).toEqual({
      title: 'First',
      notes: null,
    });
    expect(db.prepare('SELECT COUNT(*) AS n FROM projects').get()).toEqual({ n: 1 });
    db.prepare("INSERT INTO bookmarks VALUES ('b1', 'ses_1')").run();

    // The backup: v1 with the v1 data, and none of v2.
    const copy = path.join(dir, 'inspect-backup.db');
    fs.copyFileSync(backup, copy);
    const old = new Database(copy, { readonly: true });
    try {
      expect(old.pragma('user_version', { simple: true })).toBe(CURRENT);
      expect(old.prepare('SELECT title FROM sessions WHERE id = ?').get('ses_1')).toEqual({ title: 'First' });
      expect(old.prepare("SELECT value FROM settings WHERE key = 'theme'").get()).toEqual({
        value: '"dark"',
      });
      const columns = (old.prepare('PRAGMA table_info(sessions)').all() as { name: string }[]).map(
        (c) => c.name,
      );
      expect(columns).not.toContain('notes');
      expect(old.prepare("SELECT name FROM sqlite_master WHERE name = 'bookmarks'").get()).toBeUndefined();
    } finally {
      old.close();
    }

    // Opening the migrated file again with the same list is a no-op: no second backup.
    db.close();
    const again = open({ migrations: [...BASE, V2], onBackup: () => backups.push('again') });
    expect(userVersion(again)).toBe(NEXT);
    expect(again.prepare('SELECT COUNT(*) AS n FROM bookmarks').get()).toEqual({ n: 1 });
    expect(backups).toHaveLength(1);
  });

  it('does not back up a brand-new database', () => {
    const onBackup = vi.fn();
    const db = open({ migrations: [...BASE, V2], onBackup });
    expect(userVersion(db)).toBe(NEXT);
    expect(onBackup).not.toHaveBeenCalled();
  });

  it('leaves the database at its old version when a migration fails, and closes it', () => {
    const v1 = open({ migrations: BASE });
    seed(v1);
    v1.close();
    const broken: Migration = {
      version: NEXT,
      description: 'broken',
      sql: 'CREATE TABLE ok_part (x); SELECT nope FROM nowhere;',
    };
    const handlesBefore = openHandles(file);
    expect(() => open({ migrations: [...BASE, broken] })).toThrow(/no such table/);
    expect(openHandles(file)).toBe(handlesBefore);
    const db = open();
    expect(userVersion(db)).toBe(CURRENT);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'ok_part'").get()).toBeUndefined();
    expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 1 });
  });

  it('v4 gives existing projects a python_path of null, which can then be set', () => {
    const v3 = open({ migrations: MIGRATIONS.filter((m) => m.version <= 3) });
    expect(userVersion(v3)).toBe(3);
    seed(v3);
    v3.close();
    const db = open();
    expect(userVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    const projects = new ProjectsRepo(db);
    expect(projects.get('prj_1')).toMatchObject({ id: 'prj_1', path: '/tmp/p', python_path: null });
    expect(projects.setPythonPath('prj_1', '/usr/bin/python3')?.python_path).toBe('/usr/bin/python3');
    expect(projects.upsertByPath('/tmp/q').python_path).toBeNull();
    expect(projects.setPythonPath('prj_1', null)?.python_path).toBeNull();
    expect(projects.setPythonPath('prj_missing', null)).toBeNull();
  });

  describe.each(['wal', 'delete'] as const)('a database from a newer Cairn (journal mode %s)', (mode) => {
    it('is refused with database_too_new and left byte for byte as it was', () => {
      writeNewer(LATEST_SCHEMA_VERSION + 5, mode);
      const before = fs.readFileSync(file);
      const statBefore = fs.statSync(file);
      const listingBefore = fs.readdirSync(dir).sort();
      expect(listingBefore).toEqual(['cairn.db']);

      let caught: unknown;
      try {
        open();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CairnError);
      const error = caught as CairnError;
      expect(error.code).toBe('database_too_new');
      expect(error.message).toMatch(/written by a newer (version of )?Cairn/);
      expect(error.message).toContain(file);
      expect(error.message).toContain(String(LATEST_SCHEMA_VERSION + 5));

      expect(fs.readFileSync(file).equals(before)).toBe(true);
      const statAfter = fs.statSync(file);
      expect(statAfter.mtimeMs).toBe(statBefore.mtimeMs);
      expect(statAfter.size).toBe(statBefore.size);
      expect(fs.readdirSync(dir).sort()).toEqual(listingBefore);
      expect(fs.existsSync(`${file}-wal`)).toBe(false);
      expect(fs.existsSync(`${file}-shm`)).toBe(false);

      // Read a copy elsewhere: opening the file itself would create -wal/-shm next to it.
      const inspectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-inspect-'));
      fs.copyFileSync(file, path.join(inspectDir, 'copy.db'));
      const probe = new Database(path.join(inspectDir, 'copy.db'), { readonly: true });
      try {
        expect(probe.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION + 5);
        expect(probe.prepare('SELECT what FROM future_things').get()).toEqual({ what: 'from the future' });
      } finally {
        probe.close();
        fs.rmSync(inspectDir, { recursive: true, force: true });
      }
    });
  });

  it('refuses a database that is newer than a custom migrations list', () => {
    const db = open({ migrations: [...BASE, V2] });
    db.close();
    expect(() => open()).toThrow(expect.objectContaining({ code: 'database_too_new' }));
    // Still intact and openable by the newer list.
    const again = open({ migrations: [...BASE, V2] });
    expect(userVersion(again)).toBe(NEXT);
  });

  it('reads the version from a WAL left behind by a crash before refusing', () => {
    // A writer that never checkpointed: the new user_version lives only in the -wal file.
    const base = open();
    base.close();
    const writer = new Database(file);
    writer.pragma('wal_autocheckpoint = 0');
    writer.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    // Copy the database and its WAL while the writer is open, as a crash would leave them.
    const crashDir = path.join(dir, 'crash');
    fs.mkdirSync(crashDir);
    fs.copyFileSync(file, path.join(crashDir, 'cairn.db'));
    fs.copyFileSync(`${file}-wal`, path.join(crashDir, 'cairn.db-wal'));
    writer.close();
    file = path.join(crashDir, 'cairn.db');
    expect(() => open()).toThrow(expect.objectContaining({ code: 'database_too_new' }));
  });
});
