import type { Db } from './database';
import { newId, now } from './ids';

export interface ContextVersion {
  id: string;
  session_id: string;
  number: number;
  parent_id: string | null;
  /** The first message of the history this version keeps; null keeps all. */
  first_message_id: number | null;
  /** The session summary (JSON) standing in for the messages before first_message_id. */
  summary: string | null;
  reason: string;
  level: string | null;
  turn_id: string | null;
  tokens_before: number | null;
  tokens_after: number | null;
  /** What else this version replaces (JSON, read by the context layer): stubs and summaries. */
  cuts: unknown[];
  /** Messages before first_message_id kept verbatim (the user's latest prompt). */
  kept_message_ids: number[];
  /** The newest message when the version was written. */
  upto_message_id: number | null;
  /**
   * Messages (JSON, read by the context layer) standing in for everything before first_message_id: the
   * agent's edit of its working history, or a fork's start. Null: none.
   */
  edited: unknown[] | null;
  /** The session's own addition to the system prompt, from this version on. */
  system_addition: string | null;
  created_at: string;
}

/** A version as stored: its JSON columns as text. */
export interface ContextVersionRow extends Omit<ContextVersion, 'cuts' | 'kept_message_ids' | 'edited'> {
  cuts: string | null;
  kept_message_ids: string | null;
  edited: string | null;
}

const toVersion = (row: ContextVersionRow): ContextVersion => ({
  ...row,
  cuts: row.cuts ? (JSON.parse(row.cuts) as unknown[]) : [],
  kept_message_ids: row.kept_message_ids ? (JSON.parse(row.kept_message_ids) as number[]) : [],
  edited: row.edited ? (JSON.parse(row.edited) as unknown[]) : null,
});

export interface NewContextVersion {
  sessionId: string;
  parentId: string | null;
  reason: string;
  level: string | null;
  turnId: string | null;
  tokensBefore: number;
  tokensAfter: number;
  firstMessageId: number | null;
  summary: string | null;
  cuts: unknown[];
  keptMessageIds: number[];
  uptoMessageId: number | null;
  edited: unknown[] | null;
  systemAddition: string | null;
}

/**
 * Context versions: each session has a HEAD. Compaction only adds a version and moves HEAD; history
 * itself is never rewritten, and every version stays readable.
 */
export class ContextVersionsRepo {
  constructor(private readonly db: Db) {}

  head(sessionId: string): ContextVersion | null {
    const row = this.db
      .prepare('SELECT v.* FROM context_versions v JOIN sessions s ON s.context_head = v.id WHERE s.id = ?')
      .get(sessionId) as ContextVersionRow | undefined;
    return row ? toVersion(row) : null;
  }

  list(sessionId: string): ContextVersion[] {
    return (
      this.db
        .prepare('SELECT * FROM context_versions WHERE session_id = ? ORDER BY number')
        .all(sessionId) as ContextVersionRow[]
    ).map(toVersion);
  }

  byNumber(sessionId: string, number: number): ContextVersion | null {
    const row = this.db
      .prepare('SELECT * FROM context_versions WHERE session_id = ? AND number = ?')
      .get(sessionId, number) as ContextVersionRow | undefined;
    return row ? toVersion(row) : null;
  }

  /** The versions written during these turns, or between one of them and the next, oldest first. */
  forTurns(turnIds: string[]): Map<string, ContextVersion[]> {
    const result = new Map<string, ContextVersion[]>();
    if (turnIds.length === 0) return result;
    // A compaction between turns (the user's "compact now") belongs to the turn it followed.
    const rows = this.db
      .prepare(
        `SELECT v.*, COALESCE(v.turn_id, m.turn_id) AS owner
         FROM context_versions v LEFT JOIN messages m ON m.id = v.upto_message_id
         WHERE COALESCE(v.turn_id, m.turn_id) IN (SELECT value FROM json_each(?)) ORDER BY v.number`,
      )
      .all(JSON.stringify(turnIds)) as (ContextVersionRow & { owner: string })[];
    for (const row of rows) {
      const list = result.get(row.owner) ?? [];
      list.push(toVersion(row));
      result.set(row.owner, list);
    }
    return result;
  }

  /** Writes the next version and makes it the session's HEAD, in one transaction. */
  create(input: NewContextVersion): ContextVersion {
    const id = newId('ctx');
    this.db.transaction(() => {
      const { next } = this.db
        .prepare('SELECT COALESCE(MAX(number), 0) + 1 AS next FROM context_versions WHERE session_id = ?')
        .get(input.sessionId) as { next: number };
      this.db
        .prepare(
          `INSERT INTO context_versions (id, session_id, number, parent_id, first_message_id, summary, reason, level,
             turn_id, tokens_before, tokens_after, cuts, kept_message_ids, upto_message_id, edited, system_addition,
             created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          input.sessionId,
          next,
          input.parentId,
          input.firstMessageId,
          input.summary,
          input.reason,
          input.level,
          input.turnId,
          input.tokensBefore,
          input.tokensAfter,
          JSON.stringify(input.cuts),
          JSON.stringify(input.keptMessageIds),
          input.uptoMessageId,
          input.edited ? JSON.stringify(input.edited) : null,
          input.systemAddition,
          now(),
        );
      this.db.prepare('UPDATE sessions SET context_head = ? WHERE id = ?').run(id, input.sessionId);
    })();
    return this.list(input.sessionId).find((v) => v.id === id)!;
  }
}
