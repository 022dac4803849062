import type { CairnEvent, NewEvent } from '../protocol';
import type { Db } from './database';
import { now } from './ids';
import type { SearchIndex } from './search-index';

type Listener = (event: CairnEvent) => void;

export interface EventRow {
  session_id: string;
  seq: number;
  turn_id: string | null;
  type: string;
  time: string;
  data: string;
}

/** `type` starts with the prefix bound twice after it; case-sensitive, unlike LIKE, and needs no escaping. */
const TYPE_PREFIX_MATCH = 'substr(type, 1, length(?)) = ?';

const toEvent = (row: EventRow): CairnEvent =>
  ({
    ...JSON.parse(row.data),
    type: row.type,
    seq: row.seq,
    session_id: row.session_id,
    turn_id: row.turn_id,
    time: row.time,
  }) as CairnEvent;

/**
 * The append-only event journal. Every event gets the next per-session sequence number; listeners
 * hear an event after it is stored, so a relay never shows what the journal does not hold. Inside a
 * transaction (see `transaction`) that means after the outermost commit: a rolled-back event is never heard.
 * Wrap appends in `Store.transaction` (or `transaction` here), never a bare `db.transaction`, or they wait.
 */
export class EventJournal {
  private readonly listeners = new Set<Listener>();
  /** Appended inside a transaction that has not committed yet. */
  private readonly uncommitted: CairnEvent[] = [];
  private readonly nextSeq;
  private readonly insert;

  constructor(
    private readonly db: Db,
    private readonly search: SearchIndex,
  ) {
    this.nextSeq = db.prepare('UPDATE sessions SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq');
    this.insert = db.prepare(
      'INSERT INTO events (session_id, seq, turn_id, type, time, data) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  append(sessionId: string, event: NewEvent): CairnEvent {
    const { type, turn_id, ...data } = event;
    const time = now();
    const seq = this.db.transaction(() => {
      const row = this.nextSeq.get(sessionId) as { last_seq: number } | undefined;
      if (!row) throw new Error(`session ${sessionId} does not exist`);
      this.insert.run(sessionId, row.last_seq, turn_id, type, time, JSON.stringify(data));
      // A kernel cell's code and output are searchable; indexed with the event, in its transaction.
      if (type.startsWith('kernel.')) this.search.kernelEvent(sessionId, row.last_seq, event, time);
      return row.last_seq;
    })();
    const stored = { ...event, seq, session_id: sessionId, time } as CairnEvent;
    if (this.db.inTransaction) this.uncommitted.push(stored);
    else this.notify(stored);
    return stored;
  }

  /**
   * Runs `fn` in a transaction (nested ones become savepoints). Events appended inside are heard once
   * the outermost transaction commits, and dropped unheard if theirs rolls back.
   */
  transaction<T>(fn: () => T): T {
    const mark = this.uncommitted.length;
    let result: T;
    try {
      result = this.db.transaction(fn)();
    } catch (error) {
      this.uncommitted.length = mark;
      throw error;
    }
    if (!this.db.inTransaction) {
      for (const event of this.uncommitted.splice(0)) this.notify(event);
    }
    return result;
  }

  private notify(event: CairnEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed socket) must not break the producer.
      }
    }
  }

  /** Up to `limit` events after `afterSeq`; with `typePrefix`, only those whose type starts with it. */
  after(sessionId: string, afterSeq: number, limit = 10_000, typePrefix?: string): CairnEvent[] {
    // The filter is in SQL so LIMIT counts matching rows: a page is full unless the journal ran out.
    const rows =
      typePrefix === undefined
        ? this.db
            .prepare('SELECT * FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?')
            .all(sessionId, afterSeq, limit)
        : this.db
            .prepare(
              `SELECT * FROM events WHERE session_id = ? AND seq > ? AND ${TYPE_PREFIX_MATCH} ORDER BY seq LIMIT ?`,
            )
            .all(sessionId, afterSeq, typePrefix, typePrefix, limit);
    return (rows as EventRow[]).map(toEvent);
  }

  /** Every event of one turn, in order. */
  forTurn(sessionId: string, turnId: string): CairnEvent[] {
    return (
      this.db
        .prepare('SELECT * FROM events WHERE turn_id = ? AND session_id = ? ORDER BY seq')
        .all(turnId, sessionId) as EventRow[]
    ).map(toEvent);
  }

  /** Every event of a session whose type starts with `prefix` (`kernel.`), in order. */
  withTypePrefix(sessionId: string, prefix: string): CairnEvent[] {
    return (
      this.db
        .prepare(`SELECT * FROM events WHERE session_id = ? AND ${TYPE_PREFIX_MATCH} ORDER BY seq`)
        .all(sessionId, prefix, prefix) as EventRow[]
    ).map(toEvent);
  }

  /** The newest sequence number of a session (0 before its first event). */
  lastSeq(sessionId: string): number {
    const row = this.db.prepare('SELECT last_seq FROM sessions WHERE id = ?').get(sessionId) as
      | { last_seq: number }
      | undefined;
    return row?.last_seq ?? 0;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
