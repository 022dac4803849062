import type { ToolCall, ToolCallStatus } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';
import type { SearchIndex } from './search-index';

interface ToolCallRow extends Omit<ToolCall, 'input' | 'is_error' | 'background' | 'meta'> {
  input: string;
  is_error: number;
  background: number;
  meta: string | null;
}

const toToolCall = (row: ToolCallRow): ToolCall => ({
  ...row,
  input: JSON.parse(row.input) as unknown,
  is_error: row.is_error === 1,
  background: row.background === 1,
  meta: row.meta === null ? null : (JSON.parse(row.meta) as Record<string, unknown>),
});

export class ToolCallsRepo {
  constructor(
    private readonly db: Db,
    private readonly search: SearchIndex,
  ) {}

  create(input: {
    sessionId: string;
    turnId: string;
    toolUseId: string;
    name: string;
    input: unknown;
    status: ToolCallStatus;
    parentToolCallId?: string | null;
    background?: boolean;
  }): ToolCall {
    const id = newId('tc');
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO tool_calls (id, session_id, turn_id, tool_use_id, name, input, status, started_at,
           parent_tool_call_id, background)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          input.sessionId,
          input.turnId,
          input.toolUseId,
          input.name,
          JSON.stringify(input.input ?? {}),
          input.status,
          now(),
          input.parentToolCallId ?? null,
          input.background ? 1 : 0,
        );
      this.search.toolCall(id);
    })();
    return this.get(id)!;
  }

  get(id: string): ToolCall | null {
    const row = this.db.prepare('SELECT * FROM tool_calls WHERE id = ?').get(id) as ToolCallRow | undefined;
    return row ? toToolCall(row) : null;
  }

  setStatus(id: string, status: ToolCallStatus): void {
    this.db.prepare('UPDATE tool_calls SET status = ? WHERE id = ?').run(status, id);
  }

  finish(
    id: string,
    result: {
      status: ToolCallStatus;
      isError: boolean;
      preview: string;
      resultFile: string | null;
      durationMs: number;
      exitCode?: number | null;
      meta?: Record<string, unknown> | null;
    },
  ): ToolCall {
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE tool_calls SET status = ?, is_error = ?, preview = ?, result_file = ?, finished_at = ?,
           duration_ms = ?, exit_code = ?, meta = ? WHERE id = ?`,
        )
        .run(
          result.status,
          result.isError ? 1 : 0,
          result.preview,
          result.resultFile,
          now(),
          Math.round(result.durationMs),
          result.exitCode ?? null,
          result.meta ? JSON.stringify(result.meta) : null,
          id,
        );
      // The result joins the call's document in the same transaction.
      this.search.toolCall(id);
    })();
    return this.get(id)!;
  }

  /** A session's background calls: every one still running, then the newest ended ones. */
  background(sessionId: string, recent: number): ToolCall[] {
    const running = this.db
      .prepare(
        `SELECT * FROM tool_calls WHERE session_id = ? AND background = 1
           AND status IN ('running', 'waiting_approval') ORDER BY started_at DESC, rowid DESC`,
      )
      .all(sessionId) as ToolCallRow[];
    const ended = this.db
      .prepare(
        `SELECT * FROM tool_calls WHERE session_id = ? AND background = 1
           AND status NOT IN ('running', 'waiting_approval') ORDER BY finished_at DESC, rowid DESC LIMIT ?`,
      )
      .all(sessionId, recent) as ToolCallRow[];
    return [...running, ...ended].map(toToolCall);
  }

  /** The calls a script started while `parentId` ran. */
  children(parentId: string): ToolCall[] {
    return (
      this.db
        .prepare('SELECT * FROM tool_calls WHERE parent_tool_call_id = ? ORDER BY started_at, rowid')
        .all(parentId) as ToolCallRow[]
    ).map(toToolCall);
  }

  forTurns(turnIds: string[]): Map<string, ToolCall[]> {
    const result = new Map<string, ToolCall[]>();
    if (turnIds.length === 0) return result;
    const rows = this.db
      .prepare(
        'SELECT * FROM tool_calls WHERE turn_id IN (SELECT value FROM json_each(?)) ORDER BY started_at, rowid',
      )
      .all(JSON.stringify(turnIds)) as ToolCallRow[];
    for (const row of rows) {
      const list = result.get(row.turn_id) ?? [];
      list.push(toToolCall(row));
      result.set(row.turn_id, list);
    }
    return result;
  }

  /** The call that answered a tool_use block of a session's history. */
  byToolUseId(sessionId: string, toolUseId: string): ToolCall | null {
    const row = this.db
      .prepare(
        'SELECT * FROM tool_calls WHERE session_id = ? AND tool_use_id = ? ORDER BY rowid DESC LIMIT 1',
      )
      .get(sessionId, toolUseId) as ToolCallRow | undefined;
    return row ? toToolCall(row) : null;
  }

  /** The file holding the full result of a tool_use block of a session's history (null: none was written). */
  resultFile(sessionId: string, toolUseId: string): string | null {
    return this.byToolUseId(sessionId, toolUseId)?.result_file ?? null;
  }

  /** Calls that never got a result (the process stopped while they ran or waited). */
  unfinished(): ToolCall[] {
    return (
      this.db
        .prepare(
          "SELECT * FROM tool_calls WHERE status IN ('running', 'waiting_approval') ORDER BY started_at",
        )
        .all() as ToolCallRow[]
    ).map(toToolCall);
  }
}
