import type { Statement } from 'better-sqlite3';
import type { Message, SearchKind } from '../protocol';
import type { Db } from './database';
import { clip, kernelOutputText, messageText, toolCallText } from './search-sources';
import { toIndexText } from './search-text';

/** A stored row of `search_docs` that matched, with its session's title and project. */
export interface SearchRow {
  id: number;
  session_id: string;
  turn_id: string | null;
  kind: SearchKind;
  ref: string;
  body: string;
  created_at: string;
  score: number;
  session_title: string;
  project_id: string | null;
}

export interface SearchRequest {
  /** An FTS5 MATCH expression (see `toMatchQuery`). */
  match: string;
  projectId?: string;
  sessionId?: string;
  /** Also forks' own sessions (a session filter names the one it wants). */
  includeForks: boolean;
  limit: number;
  /** Rows ranked after this one: worse score, or the same score and an older id. */
  after?: { score: number; id: number };
}

/** A journal event as `EventJournal.append` has it: its type, turn and fields. */
interface KernelEventInput {
  type: string;
  turn_id: string | null;
  execution_id?: unknown;
  code?: unknown;
}

const CELL_END = new Set(['kernel.result', 'kernel.error', 'kernel.died']);

/**
 * The full-text index over sessions (`search_docs` and its FTS5 table `search_fts`, migration 14). The
 * repositories that write messages, tool calls and kernel events call it inside their own transactions,
 * so the index never disagrees with what is stored. Deleting a session (or its project) deletes its
 * documents by cascade, and a trigger their FTS rows.
 */
export class SearchIndex {
  /** False on a database older than migration 14 (tests that build one): writes then index nothing. */
  private readonly enabled: boolean;

  /** Statements by SQL, prepared once: messages are indexed on every append. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    this.enabled =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_docs'").get() !==
      undefined;
  }

  message(sessionId: string, message: Message): void {
    // Cairn's own instructions (continue, synthetic results) are not what anyone said.
    if (!this.enabled || message.internal) return;
    const text = messageText(message.content);
    if (!text) return;
    this.put({
      sessionId,
      turnId: message.turn_id,
      kind: 'message',
      ref: String(message.id),
      body: text,
      createdAt: message.created_at,
    });
  }

  /** A tool call as stored now: on creation its name and input, once finished its result too. */
  toolCall(id: string): void {
    if (!this.enabled) return;
    const call = this.stmt(
      'SELECT id, session_id, turn_id, name, input, preview, result_file, started_at FROM tool_calls WHERE id = ?',
    ).get(id) as
      | {
          id: string;
          session_id: string;
          turn_id: string;
          name: string;
          input: string;
          preview: string | null;
          result_file: string | null;
          started_at: string;
        }
      | undefined;
    if (!call) return;
    this.put({
      sessionId: call.session_id,
      turnId: call.turn_id,
      kind: 'tool_call',
      ref: call.id,
      body: toolCallText(call),
      createdAt: call.started_at,
    });
  }

  /** A kernel cell: its code when it starts; its output (streams, result, error) attached when it ends. */
  kernelEvent(sessionId: string, seq: number, event: KernelEventInput, time: string): void {
    if (!this.enabled || typeof event.execution_id !== 'string') return;
    if (event.type === 'kernel.execution_started' && typeof event.code === 'string') {
      this.put({
        sessionId,
        turnId: event.turn_id,
        kind: 'kernel_cell',
        ref: event.execution_id,
        body: clip(event.code),
        createdAt: time,
        eventSeq: seq,
      });
      return;
    }
    if (!CELL_END.has(event.type)) return;
    const cell = this.stmt(
      "SELECT id, turn_id, body, event_seq, created_at FROM search_docs WHERE session_id = ? AND kind = 'kernel_cell' AND ref = ?",
    ).get(sessionId, event.execution_id) as
      | { id: number; turn_id: string | null; body: string; event_seq: number; created_at: string }
      | undefined;
    if (!cell) return;
    // The streams were journaled between the start and now; they are read once, not re-indexed per chunk.
    const streams = this.stmt(
      `SELECT data FROM events WHERE session_id = ? AND seq > ? AND seq < ? AND type = 'kernel.stream'
           AND json_extract(data, '$.execution_id') = ? ORDER BY seq`,
    ).all(sessionId, cell.event_seq, seq, event.execution_id) as { data: string }[];
    const output = [
      ...streams.map((s) => kernelOutputText({ type: 'kernel.stream', ...JSON.parse(s.data) })),
      kernelOutputText(event),
    ]
      .filter(Boolean)
      .join('');
    if (!output) return;
    this.put({
      sessionId,
      turnId: cell.turn_id,
      kind: 'kernel_cell',
      ref: event.execution_id,
      body: clip(`${cell.body}\n${output}`),
      createdAt: cell.created_at,
      eventSeq: cell.event_seq,
    });
  }

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Adds or replaces a document (by kind and ref) and its FTS row, in one transaction. */
  private put(doc: {
    sessionId: string;
    turnId: string | null;
    kind: SearchKind;
    ref: string;
    body: string;
    createdAt: string;
    eventSeq?: number;
  }): void {
    this.db.transaction(() => {
      // By session too: a branch's copied kernel cells keep their execution ids.
      const existing = this.stmt(
        'SELECT id FROM search_docs WHERE session_id = ? AND kind = ? AND ref = ?',
      ).get(doc.sessionId, doc.kind, doc.ref) as { id: number } | undefined;
      let id: number;
      if (existing) {
        id = existing.id;
        this.stmt('UPDATE search_docs SET body = ? WHERE id = ?').run(doc.body, id);
        this.stmt('DELETE FROM search_fts WHERE rowid = ?').run(id);
      } else {
        id = Number(
          this.stmt(
            `INSERT INTO search_docs (session_id, turn_id, kind, ref, body, event_seq, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)`,
          ).run(doc.sessionId, doc.turnId, doc.kind, doc.ref, doc.body, doc.eventSeq ?? null, doc.createdAt)
            .lastInsertRowid,
        );
      }
      this.stmt('INSERT INTO search_fts (rowid, body) VALUES (?, ?)').run(id, toIndexText(doc.body));
    })();
  }

  /** Matching documents, best first (bm25; ties: newer first), at most `limit`. */
  search(request: SearchRequest): SearchRow[] {
    if (!this.enabled) return [];
    const where: string[] = [];
    const params: unknown[] = [request.match];
    if (request.projectId !== undefined) {
      where.push('s.project_id = ?');
      params.push(request.projectId);
    }
    if (request.sessionId !== undefined) {
      where.push('d.session_id = ?');
      params.push(request.sessionId);
    }
    if (!request.includeForks) where.push('s.parent_session_id IS NULL');
    if (request.after) {
      where.push('(m.score > ? OR (m.score = ? AND m.id < ?))');
      params.push(request.after.score, request.after.score, request.after.id);
    }
    params.push(request.limit);
    // Materialized: bm25() must run in the FTS5 query itself, not in a flattened outer one. The page is
    // chosen from ids and scores alone; only its rows' bodies are read (a common word matches thousands).
    return this.stmt(
      `WITH m AS MATERIALIZED (
           SELECT rowid AS id, bm25(search_fts) AS score FROM search_fts WHERE search_fts MATCH ?
         ),
         page AS MATERIALIZED (
           SELECT m.id, m.score FROM m JOIN search_docs d ON d.id = m.id JOIN sessions s ON s.id = d.session_id
           ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY m.score, m.id DESC LIMIT ?
         )
         SELECT d.id, d.session_id, d.turn_id, d.kind, d.ref, d.body, d.created_at, page.score,
                s.title AS session_title, s.project_id
         FROM page JOIN search_docs d ON d.id = page.id JOIN sessions s ON s.id = d.session_id
         ORDER BY page.score, page.id DESC`,
    ).all(...params) as SearchRow[];
  }
}
