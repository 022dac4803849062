import {
  ErrorInfo,
  type FileNotRestored,
  type SessionUsage,
  type Turn,
  type TurnKind,
  type TurnStatus,
  type Usage,
} from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';
import { estimateCost, type Prices } from './usage-cost';

interface TurnRow {
  id: string;
  session_id: string;
  ordinal: number;
  request_id: string;
  prompt: string;
  status: TurnStatus;
  error_code: string | null;
  error_message: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_input_tokens: number | null;
  cache_creation_input_tokens: number | null;
  continuations: number;
  created_at: string;
  finished_at: string | null;
  answer: string | null;
  kind: TurnKind;
  reverted_turn_id: string | null;
  files_changed: number | null;
  files_before: string | null;
  files_note: string | null;
  files_not_restored: string | null;
}

/** A turn with the prices of the model config it used (all null when it used none, or the config is gone). */
type PricedTurnRow = TurnRow & Prices;

/** Turns as `t`, with their model config's prices. */
const SELECT = `SELECT t.*, m.price_input, m.price_output, m.price_cache_read, m.price_cache_write
  FROM turns t LEFT JOIN model_configs m ON m.id = t.model_config_id`;

function toTurn(row: PricedTurnRow): Turn {
  const usage = usageOf(row);
  return {
    id: row.id,
    session_id: row.session_id,
    ordinal: row.ordinal,
    request_id: row.request_id,
    prompt: row.prompt,
    status: row.status,
    // A code this version does not know (written by a newer Cairn) reads as internal, as on the wire.
    error: row.error_code
      ? ErrorInfo.parse({ code: row.error_code, message: row.error_message ?? '' })
      : null,
    usage,
    continuations: row.continuations,
    created_at: row.created_at,
    finished_at: row.finished_at,
    answer: row.answer ?? null,
    cost: usage ? estimateCost(usage, row) : null,
    kind: row.kind,
    reverted_turn_id: row.reverted_turn_id,
    files_changed: row.files_changed,
    files_recorded: row.files_before !== null,
    files_note: row.files_note,
    not_restored: row.files_not_restored ? (JSON.parse(row.files_not_restored) as FileNotRestored[]) : [],
  };
}

function usageOf(row: TurnRow): Usage | null {
  if (row.input_tokens === null && row.output_tokens === null) return null;
  return {
    input_tokens: row.input_tokens ?? 0,
    output_tokens: row.output_tokens ?? 0,
    cache_read_input_tokens: row.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: row.cache_creation_input_tokens ?? 0,
  };
}

export class TurnsRepo {
  constructor(private readonly db: Db) {}

  /** A running turn at the session's next ordinal; `revertOf` makes it the revert of that turn. */
  create(sessionId: string, requestId: string, prompt: string, revertOf: string | null = null): Turn {
    const id = newId('trn');
    const time = now();
    this.db
      .prepare(
        `INSERT INTO turns (id, session_id, ordinal, request_id, prompt, status, created_at, kind, reverted_turn_id)
         VALUES (?, ?, (SELECT COALESCE(MAX(ordinal), 0) + 1 FROM turns WHERE session_id = ?), ?, ?, 'running', ?, ?, ?)`,
      )
      .run(id, sessionId, sessionId, requestId, prompt, time, revertOf ? 'revert' : 'prompt', revertOf);
    return this.get(id)!;
  }

  get(id: string): Turn | null {
    const row = this.db.prepare(`${SELECT} WHERE t.id = ?`).get(id) as PricedTurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  byRequestId(sessionId: string, requestId: string): Turn | null {
    const row = this.db
      .prepare(`${SELECT} WHERE t.session_id = ? AND t.request_id = ?`)
      .get(sessionId, requestId) as PricedTurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  running(sessionId: string): Turn | null {
    const row = this.db
      .prepare(`${SELECT} WHERE t.session_id = ? AND t.status = 'running' LIMIT 1`)
      .get(sessionId) as PricedTurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  allRunning(): Turn[] {
    return (this.db.prepare(`${SELECT} WHERE t.status = 'running'`).all() as PricedTurnRow[]).map(toTurn);
  }

  /** The newest `limit` turns older than `before`, oldest first. */
  page(sessionId: string, limit: number, before?: number): { turns: Turn[]; nextBefore: number | null } {
    const rows = (
      before === undefined
        ? this.db
            .prepare(`${SELECT} WHERE t.session_id = ? ORDER BY t.ordinal DESC LIMIT ?`)
            .all(sessionId, limit)
        : this.db
            .prepare(`${SELECT} WHERE t.session_id = ? AND t.ordinal < ? ORDER BY t.ordinal DESC LIMIT ?`)
            .all(sessionId, before, limit)
    ) as PricedTurnRow[];
    rows.reverse();
    const oldest = rows[0];
    const hasOlder =
      oldest !== undefined &&
      this.db
        .prepare('SELECT 1 FROM turns WHERE session_id = ? AND ordinal < ? LIMIT 1')
        .get(sessionId, oldest.ordinal) !== undefined;
    return { turns: rows.map(toTurn), nextBefore: hasOlder ? oldest.ordinal : null };
  }

  finish(id: string, status: Exclude<TurnStatus, 'running'>, error: ErrorInfo | null = null): Turn {
    this.db
      .prepare(
        "UPDATE turns SET status = ?, error_code = ?, error_message = ?, finished_at = ? WHERE id = ? AND status = 'running'",
      )
      .run(status, error?.code ?? null, error?.message ?? null, now(), id);
    return this.get(id)!;
  }

  /** Adds one request's tokens; `modelConfigId` is the config that priced them (the turn keeps the last). */
  addUsage(id: string, usage: Usage, modelConfigId: string | null = null): void {
    this.db
      .prepare(
        `UPDATE turns SET input_tokens = COALESCE(input_tokens, 0) + ?, output_tokens = COALESCE(output_tokens, 0) + ?,
           cache_read_input_tokens = COALESCE(cache_read_input_tokens, 0) + ?,
           cache_creation_input_tokens = COALESCE(cache_creation_input_tokens, 0) + ?,
           model_config_id = COALESCE(?, model_config_id) WHERE id = ?`,
      )
      .run(
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_input_tokens,
        usage.cache_creation_input_tokens,
        modelConfigId,
        id,
      );
  }

  /**
   * A session's tokens over all its turns and its forks' (what its work cost), and their cost where the
   * turns' configs have prices.
   */
  sessionUsage(sessionId: string): SessionUsage {
    const rows = this.db
      .prepare(
        `SELECT SUM(COALESCE(t.input_tokens, 0)) AS input_tokens, SUM(COALESCE(t.output_tokens, 0)) AS output_tokens,
           SUM(COALESCE(t.cache_read_input_tokens, 0)) AS cache_read_input_tokens,
           SUM(COALESCE(t.cache_creation_input_tokens, 0)) AS cache_creation_input_tokens,
           m.price_input, m.price_output, m.price_cache_read, m.price_cache_write
         FROM turns t LEFT JOIN model_configs m ON m.id = t.model_config_id
         WHERE t.session_id = ? OR t.session_id IN (SELECT id FROM sessions WHERE parent_session_id = ?)
         GROUP BY t.model_config_id`,
      )
      .all(sessionId, sessionId) as (Usage & Prices)[];
    const total: SessionUsage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      cost: null,
    };
    for (const row of rows) {
      total.input_tokens += row.input_tokens;
      total.output_tokens += row.output_tokens;
      total.cache_read_input_tokens += row.cache_read_input_tokens;
      total.cache_creation_input_tokens += row.cache_creation_input_tokens;
      const cost = estimateCost(row, row);
      if (cost !== null) total.cost = (total.cost ?? 0) + cost;
    }
    return total;
  }

  countContinuation(id: string): void {
    this.db.prepare('UPDATE turns SET continuations = continuations + 1 WHERE id = ?').run(id);
  }

  /** Code mode: the turn's final answer. */
  setAnswer(id: string, answer: string): void {
    this.db.prepare('UPDATE turns SET answer = ? WHERE id = ?').run(answer, id);
  }
}
