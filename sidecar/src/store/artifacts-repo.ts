import type { Db } from './database';
import { now } from './ids';

/** A rich output of a kernel saved as a file: where it is and what it is. */
export interface ArtifactRecord {
  id: string;
  sessionId: string;
  kernel: string;
  executionId: string | null;
  mime: string;
  bytes: number;
  path: string;
  createdAt: string;
}

interface ArtifactRow {
  id: string;
  session_id: string;
  kernel: string;
  execution_id: string | null;
  mime: string;
  bytes: number;
  path: string;
  created_at: string;
}

/** Artifacts by id: the id is random, so holding one is what lets a client fetch the file. */
export class ArtifactsRepo {
  constructor(private readonly db: Db) {}

  add(input: Omit<ArtifactRecord, 'createdAt'>): ArtifactRecord {
    const record = { ...input, createdAt: now() };
    this.db
      .prepare(
        'INSERT OR IGNORE INTO artifacts (id, session_id, kernel, execution_id, mime, bytes, path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        record.id,
        record.sessionId,
        record.kernel,
        record.executionId,
        record.mime,
        record.bytes,
        record.path,
        record.createdAt,
      );
    return record;
  }

  get(id: string): ArtifactRecord | null {
    const row = this.db.prepare('SELECT * FROM artifacts WHERE id = ?').get(id) as ArtifactRow | undefined;
    return row ? toRecord(row) : null;
  }

  /** A session's artifacts, oldest first. */
  forSession(sessionId: string): ArtifactRecord[] {
    return (
      this.db
        .prepare('SELECT * FROM artifacts WHERE session_id = ? ORDER BY created_at, rowid')
        .all(sessionId) as ArtifactRow[]
    ).map(toRecord);
  }
}

function toRecord(row: ArtifactRow): ArtifactRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    kernel: row.kernel,
    executionId: row.execution_id,
    mime: row.mime,
    bytes: row.bytes,
    path: row.path,
    createdAt: row.created_at,
  };
}
