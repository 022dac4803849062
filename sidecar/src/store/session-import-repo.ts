import type { ContentBlock, Message, Question, ToolCall, Turn } from '../protocol';
import type { Db } from './database';
import { indexSession } from './search-backfill';

const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/**
 * Rows of an imported session, written as they were (times, statuses, usage) under the ids the importer
 * gives them. The importer runs these inside one `Store.transaction`.
 */
export class SessionImportRepo {
  constructor(private readonly db: Db) {}

  insertTurn(turn: Turn): void {
    this.db
      .prepare(
        `INSERT INTO turns (id, session_id, ordinal, request_id, prompt, status, error_code, error_message,
           input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens, continuations,
           created_at, finished_at, answer, kind, reverted_turn_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        turn.id,
        turn.session_id,
        turn.ordinal,
        turn.request_id,
        turn.prompt,
        turn.status,
        turn.error?.code ?? null,
        turn.error?.message ?? null,
        turn.usage?.input_tokens ?? null,
        turn.usage?.output_tokens ?? null,
        turn.usage?.cache_read_input_tokens ?? null,
        turn.usage?.cache_creation_input_tokens ?? null,
        turn.continuations,
        turn.created_at,
        turn.finished_at,
        turn.answer,
        turn.kind,
        turn.reverted_turn_id,
      );
  }

  /** Returns the new message's id (ids are the store's own: they order the history). */
  insertMessage(sessionId: string, message: Omit<Message, 'id'> & { content: ContentBlock[] }): number {
    const info = this.db
      .prepare(
        'INSERT INTO messages (session_id, turn_id, role, content, internal, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        sessionId,
        message.turn_id,
        message.role,
        JSON.stringify(message.content),
        message.internal ? 1 : 0,
        message.created_at,
      );
    return Number(info.lastInsertRowid);
  }

  insertToolCall(call: ToolCall): void {
    this.db
      .prepare(
        `INSERT INTO tool_calls (id, session_id, turn_id, tool_use_id, name, input, status, is_error, preview,
           result_file, started_at, finished_at, duration_ms, parent_tool_call_id, background, exit_code, meta)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        call.id,
        call.session_id,
        call.turn_id,
        call.tool_use_id,
        call.name,
        JSON.stringify(call.input ?? {}),
        call.status,
        call.is_error ? 1 : 0,
        call.preview,
        call.result_file,
        call.started_at,
        call.finished_at,
        call.duration_ms === null ? null : Math.round(call.duration_ms),
        call.parent_tool_call_id,
        call.background ? 1 : 0,
        call.exit_code,
        json(call.meta),
      );
  }

  insertQuestion(question: Question): void {
    this.db
      .prepare(
        `INSERT INTO questions (id, session_id, turn_id, tool_call_id, kind, question, options, tool, permission,
           fork_id, elicitation, status, answer, created_at, answered_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        question.id,
        question.session_id,
        question.turn_id,
        question.tool_call_id,
        question.kind,
        question.question,
        json(question.options),
        json(question.tool),
        json(question.permission),
        question.fork_id,
        json(question.elicitation),
        question.status,
        question.answer,
        question.created_at,
        question.answered_at,
      );
  }

  /** Appends an event at the next sequence number, keeping its time. Nobody listens to a session this new. */
  insertEvent(
    sessionId: string,
    event: { turn_id: string | null; type: string; time: string; data: Record<string, unknown> },
  ): void {
    const { last_seq } = this.db
      .prepare('UPDATE sessions SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq')
      .get(sessionId) as { last_seq: number };
    this.db
      .prepare('INSERT INTO events (session_id, seq, turn_id, type, time, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(sessionId, last_seq, event.turn_id, event.type, event.time, JSON.stringify(event.data));
  }

  /** Makes the imported session searchable (its rows were written here, not through the repositories). */
  indexImported(sessionId: string): void {
    indexSession(this.db, sessionId);
  }
}
