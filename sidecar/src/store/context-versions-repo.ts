import type { Db } from './database';

export interface ContextVersion {
  id: string;
  session_id: string;
  number: number;
  parent_id: string | null;
  /** The first message of the history this version keeps; null keeps all. */
  first_message_id: number | null;
  /** A summary standing in for the messages before first_message_id (compaction). */
  summary: string | null;
  reason: string;
  created_at: string;
}

/**
 * Context versions: each session has a HEAD. Compaction (a later issue) only adds a version and
 * moves HEAD; history itself is never rewritten.
 */
export class ContextVersionsRepo {
  constructor(private readonly db: Db) {}

  head(sessionId: string): ContextVersion | null {
    return (
      (this.db
        .prepare('SELECT v.* FROM context_versions v JOIN sessions s ON s.context_head = v.id WHERE s.id = ?')
        .get(sessionId) as ContextVersion | undefined) ?? null
    );
  }

  list(sessionId: string): ContextVersion[] {
    return this.db
      .prepare('SELECT * FROM context_versions WHERE session_id = ? ORDER BY number')
      .all(sessionId) as ContextVersion[];
  }
}
