import type { Db } from './database';
import type { EventRow } from './event-journal';
import { type MessageRow, toMessage } from './messages-repo';
import type { ReportProgress } from './migrations';
import { SearchIndex } from './search-index';

const BATCH = 2000;
const TASK = 'Indexing sessions for search';
const KERNEL_TYPES = "type IN ('kernel.execution_started', 'kernel.result', 'kernel.error', 'kernel.died')";

/**
 * Migration 14's step: indexes what earlier versions stored, the same way the repositories index new
 * rows, in batches so a large database reports how far it has come.
 */
export function backfillSearchIndex(db: Db, report: ReportProgress): void {
  const index = new SearchIndex(db);
  const kernelEvent = (row: EventRow) => indexKernelRow(index, row);
  const batches = <Row, Key extends unknown[]>(
    unit: string,
    countSql: string,
    pageSql: string,
    start: Key,
    keyOf: (row: Row) => Key,
    each: (row: Row) => void,
  ) => {
    const total = (db.prepare(countSql).get() as { n: number }).n;
    const page = db.prepare(pageSql);
    let done = 0;
    for (let key = start; ; ) {
      const rows = page.all(...key, BATCH) as Row[];
      if (rows.length === 0) break;
      for (const row of rows) each(row);
      key = keyOf(rows.at(-1)!);
      done += rows.length;
      report({ task: TASK, done, total, unit });
    }
  };

  batches<MessageRow & { session_id: string }, [number]>(
    'messages',
    'SELECT count(*) AS n FROM messages',
    'SELECT id, session_id, turn_id, role, content, internal, created_at FROM messages WHERE id > ? ORDER BY id LIMIT ?',
    [0],
    (row) => [row.id],
    (row) => index.message(row.session_id, toMessage(row)),
  );

  batches<{ rowid: number; id: string }, [number]>(
    'tool calls',
    'SELECT count(*) AS n FROM tool_calls',
    'SELECT rowid, id FROM tool_calls WHERE rowid > ? ORDER BY rowid LIMIT ?',
    [0],
    (row) => [row.rowid],
    (row) => index.toolCall(row.id),
  );

  // A cell's start, then its end: in journal order, as they were appended.
  batches<EventRow, [string, number]>(
    'kernel events',
    `SELECT count(*) AS n FROM events WHERE ${KERNEL_TYPES}`,
    `SELECT session_id, seq, turn_id, type, time, data FROM events
     WHERE ${KERNEL_TYPES} AND (session_id, seq) > (?, ?) ORDER BY session_id, seq LIMIT ?`,
    ['', 0],
    (row) => [row.session_id, row.seq],
    kernelEvent,
  );
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
