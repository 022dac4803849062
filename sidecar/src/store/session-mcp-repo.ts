import type { Db } from './database';
import { now } from './ids';
import type { McpServerRow } from './mcp-servers-repo';

/** A session's MCP servers: the enabled servers as they were at its first run, and a pending reset. */
export interface SessionMcpRow {
  session_id: string;
  /** null until the session's first run takes it (or after a reset, until the next run). */
  snapshot: McpServerRow[] | null;
  snapshot_at: string | null;
  reset_pending: boolean;
}

interface Raw {
  session_id: string;
  snapshot: string | null;
  snapshot_at: string | null;
  reset_pending: number;
}

export class SessionMcpRepo {
  constructor(private readonly db: Db) {}

  get(sessionId: string): SessionMcpRow | null {
    const r = this.db.prepare('SELECT * FROM session_mcp WHERE session_id = ?').get(sessionId) as
      | Raw
      | undefined;
    if (!r) return null;
    return {
      session_id: r.session_id,
      snapshot: r.snapshot === null ? null : (JSON.parse(r.snapshot) as McpServerRow[]),
      snapshot_at: r.snapshot_at,
      reset_pending: r.reset_pending === 1,
    };
  }

  /** Records the servers a session runs with; clears a pending reset. */
  takeSnapshot(sessionId: string, servers: McpServerRow[]): SessionMcpRow {
    this.db
      .prepare(
        `INSERT INTO session_mcp (session_id, snapshot, snapshot_at, reset_pending) VALUES (?, ?, ?, 0)
         ON CONFLICT(session_id) DO UPDATE SET snapshot = excluded.snapshot, snapshot_at = excluded.snapshot_at, reset_pending = 0`,
      )
      .run(sessionId, JSON.stringify(servers), now());
    return this.get(sessionId)!;
  }

  /** The next run loads the current configuration. */
  markReset(sessionId: string): void {
    this.db
      .prepare(
        `INSERT INTO session_mcp (session_id, snapshot, snapshot_at, reset_pending) VALUES (?, NULL, NULL, 1)
         ON CONFLICT(session_id) DO UPDATE SET reset_pending = 1`,
      )
      .run(sessionId);
  }
}
