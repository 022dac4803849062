import fs from 'node:fs';
import Database from 'better-sqlite3';
import { createOwnerOnlyFile, narrowToOwner } from '../config/owner-only-files';
import { CairnError } from '../errors';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration, type MigrationProgress } from './migrations';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  migrations?: readonly Migration[];
  /** Called with the backup's path before migrations run on an existing database. */
  onBackup?: (backupPath: string) => void;
  /** Told how a long migration step (indexing existing sessions) is getting on. */
  onProgress?: (progress: MigrationProgress) => void;
}

/**
 * Opens (creating if needed) the database file, refuses one written by a newer Cairn without
 * touching it, copies an existing file aside, then applies pending migrations.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const migrations = options.migrations ?? MIGRATIONS;
  const latest = migrations.at(-1)?.version ?? LATEST_SCHEMA_VERSION;
  const existed = fs.existsSync(file) && fs.statSync(file).size > 0;
  if (existed) refuseNewer(file, latest);

  // SQLite makes the -wal and -shm files with the database file's mode, so that one is created owner-only.
  createOwnerOnlyFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');

    const current = db.pragma('user_version', { simple: true }) as number;
    const pending = migrations.filter((m) => m.version > current);
    if (pending.length > 0 && existed && current > 0) {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const backup = `${file}.v${current}-${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
      fs.copyFileSync(file, backup);
      narrowToOwner(backup); // a copy takes the source's mode, which an earlier version may have left open
      options.onBackup?.(backup);
    }
    for (const migration of pending) {
      db.transaction(() => {
        db.exec(migration.sql);
        migration.run?.(db, (progress) => options.onProgress?.({ version: migration.version, ...progress }));
        db.pragma(`user_version = ${migration.version}`);
      })();
    }
    return db;
  } catch (error) {
    // A failed migration must not leave the file open (the caller releases the data directory next).
    db.close();
    throw error;
  }
}

function refuseNewer(file: string, latest: number): void {
  const version = readUserVersion(file);
  if (version > latest) {
    throw new CairnError(
      'database_too_new',
      `The database ${file} was written by a newer version of Cairn (schema ${version}; this version knows up to ${latest}). ` +
        'It was left untouched: update Cairn, or point --data-dir at another directory.',
    );
  }
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * The schema version of an existing file, without writing anything next to it. Opening a WAL database,
 * even read-only, creates -wal and -shm files that outlive the connection; so when no journal file is
 * there, the header (user_version: 4 bytes big-endian at offset 60) is the committed truth and is read
 * directly. Only a left-over journal, which may hold a newer header, needs SQLite to read it.
 */
function readUserVersion(file: string): number {
  const journaled = fs.existsSync(`${file}-wal`) || fs.existsSync(`${file}-journal`);
  if (!journaled) {
    const header = Buffer.alloc(100);
    const fd = fs.openSync(file, 'r');
    try {
      const read = fs.readSync(fd, header, 0, header.length, 0);
      const isSqlite = read === header.length && header.toString('latin1', 0, 16) === SQLITE_MAGIC;
      if (isSqlite) return header.readInt32BE(60);
    } finally {
      fs.closeSync(fd);
    }
  }
  const probe = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return probe.pragma('user_version', { simple: true }) as number;
  } finally {
    probe.close();
  }
}
