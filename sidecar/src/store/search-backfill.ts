import type { Db } from './database';
import type { EventRow } from './event-journal';
import { type MessageRow, toMessage } from './messages-repo';
import { SearchIndex } from './search-index';

/** The settings key holding how far indexing what was stored before search has come (absent: done). */
export const BACKFILL_KEY = 'search_backfill';

/**
 * Where the backfill stands. Migration 14 writes it with the newest message id and tool call rowid of the
 * time: rows after those were indexed as they were written. Kernel events are walked to the journal's end
 * (indexing one again replaces its document).
 */
interface Cursor {
  message: number;
  message_max: number;
  tool_call: number;
  tool_call_max: number;
  event: [string, number];
  /** Messages and tool calls indexed so far. */
  done?: number;
}

/** What one step did: rows indexed so far of the total, in which unit; `finished` after the last one. */
export interface BackfillProgress {
  done: number;
  total: number;
  finished: boolean;
}

const KERNEL_TYPES = "type IN ('kernel.execution_started', 'kernel.result', 'kernel.error', 'kernel.died')";

/**
 * Indexes what earlier versions stored, a batch per transaction, resuming where the last step ended (also
 * after a restart), so upgrading never holds the database, or the app's start, for the whole history.
 */
export class SearchBackfill {
  private readonly index: SearchIndex;
  /** Messages and tool calls up to the marks: fixed by the migration, so counted once. */
  private total: number | null = null;

  constructor(private readonly db: Db) {
    this.index = new SearchIndex(db);
  }

  pending(): boolean {
    return this.cursor() !== null;
  }

  /** Indexes up to `batch` rows in one transaction; null when nothing is left. */
  step(batch: number): BackfillProgress | null {
    return this.db.transaction(() => {
      const cursor = this.cursor();
      if (!cursor) return null;
      const left = this.messages(cursor, batch);
      const afterCalls = left > 0 ? this.toolCalls(cursor, left) : 0;
      cursor.done = (cursor.done ?? 0) + batch - afterCalls;
      const afterEvents = afterCalls > 0 ? this.events(cursor, afterCalls) : 0;
      const finished = afterEvents > 0;
      if (finished) this.db.prepare('DELETE FROM settings WHERE key = ?').run(BACKFILL_KEY);
      else this.save(cursor);
      return { done: cursor.done, total: this.totalOf(cursor), finished };
    })();
  }

  /** Messages and tool calls up to the migration's marks (kernel events are not counted: they are few). */
  private totalOf(cursor: Cursor): number {
    if (this.total === null) {
      const count = (sql: string, mark: number) => (this.db.prepare(sql).get(mark) as { n: number }).n;
      this.total =
        count('SELECT count(*) AS n FROM messages WHERE id <= ?', cursor.message_max) +
        count('SELECT count(*) AS n FROM tool_calls WHERE rowid <= ?', cursor.tool_call_max);
    }
    return this.total;
  }

  /** Returns how many of `budget` rows are left after the messages (0 while messages remain). */
  private messages(cursor: Cursor, budget: number): number {
    const rows = this.db
      .prepare(
        `SELECT id, session_id, turn_id, role, content, internal, created_at FROM messages
         WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`,
      )
      .all(cursor.message, cursor.message_max, budget) as (MessageRow & { session_id: string })[];
    for (const row of rows) this.index.message(row.session_id, toMessage(row));
    cursor.message = rows.at(-1)?.id ?? cursor.message_max;
    return rows.length < budget ? budget - rows.length : 0;
  }

  private toolCalls(cursor: Cursor, budget: number): number {
    const rows = this.db
      .prepare('SELECT rowid, id FROM tool_calls WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?')
      .all(cursor.tool_call, cursor.tool_call_max, budget) as { rowid: number; id: string }[];
    for (const row of rows) this.index.toolCall(row.id);
    cursor.tool_call = rows.at(-1)?.rowid ?? cursor.tool_call_max;
    return rows.length < budget ? budget - rows.length : 0;
  }

  /** A cell's start, then its end: in journal order, as they were appended. */
  private events(cursor: Cursor, budget: number): number {
    const rows = this.db
      .prepare(
        `SELECT session_id, seq, turn_id, type, time, data FROM events
         WHERE ${KERNEL_TYPES} AND (session_id, seq) > (?, ?) ORDER BY session_id, seq LIMIT ?`,
      )
      .all(...cursor.event, budget) as EventRow[];
    for (const row of rows) indexKernelRow(this.index, row);
    const last = rows.at(-1);
    if (last) cursor.event = [last.session_id, last.seq];
    return rows.length < budget ? budget - rows.length : 0;
  }

  private cursor(): Cursor | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(BACKFILL_KEY) as
      | { value: string }
      | undefined;
    return row ? (JSON.parse(row.value) as Cursor) : null;
  }

  private save(cursor: Cursor): void {
    this.db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(cursor), BACKFILL_KEY);
  }
}

/**
 * Indexes one session written by copying rows (a branch, an import) rather than through the repositories,
 * inside the caller's transaction.
 */
export function indexSession(db: Db, sessionId: string): void {
  const index = new SearchIndex(db);
  const messages = db
    .prepare(
      'SELECT id, session_id, turn_id, role, content, internal, created_at FROM messages WHERE session_id = ? ORDER BY id',
    )
    .all(sessionId) as MessageRow[];
  for (const row of messages) index.message(sessionId, toMessage(row));
  const calls = db
    .prepare('SELECT id FROM tool_calls WHERE session_id = ? ORDER BY rowid')
    .all(sessionId) as {
    id: string;
  }[];
  for (const call of calls) index.toolCall(call.id);
  const events = db
    .prepare(
      `SELECT session_id, seq, turn_id, type, time, data FROM events WHERE session_id = ? AND ${KERNEL_TYPES} ORDER BY seq`,
    )
    .all(sessionId) as EventRow[];
  for (const row of events) indexKernelRow(index, row);
}

/** A stored kernel event, indexed as `EventJournal.append` indexes a new one. */
function indexKernelRow(index: SearchIndex, row: EventRow): void {
  index.kernelEvent(
    row.session_id,
    row.seq,
    { ...JSON.parse(row.data), type: row.type, turn_id: row.turn_id },
    row.time,
  );
}
