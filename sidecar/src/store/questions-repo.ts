import type { Question } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

interface QuestionRow extends Omit<Question, 'options' | 'tool' | 'permission' | 'elicitation'> {
  options: string | null;
  tool: string | null;
  permission: string | null;
  elicitation: string | null;
}

const toQuestion = (row: QuestionRow): Question => ({
  ...row,
  options: row.options ? (JSON.parse(row.options) as string[]) : null,
  tool: row.tool ? (JSON.parse(row.tool) as Question['tool']) : null,
  permission: row.permission ? (JSON.parse(row.permission) as Question['permission']) : null,
  elicitation: row.elicitation ? (JSON.parse(row.elicitation) as Question['elicitation']) : null,
});

export class QuestionsRepo {
  constructor(private readonly db: Db) {}

  create(input: {
    sessionId: string;
    turnId: string;
    toolCallId: string | null;
    kind: Question['kind'];
    question: string;
    options: string[] | null;
    tool: Question['tool'];
    permission?: Question['permission'] | undefined;
    /** A fork's call asking in its parent's session. */
    forkId?: string | null | undefined;
    /** An MCP server's form request. */
    elicitation?: Question['elicitation'] | undefined;
  }): Question {
    const id = newId('q');
    this.db
      .prepare(
        `INSERT INTO questions (id, session_id, turn_id, tool_call_id, kind, question, options, tool, permission, fork_id, elicitation, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      )
      .run(
        id,
        input.sessionId,
        input.turnId,
        input.toolCallId,
        input.kind,
        input.question,
        input.options ? JSON.stringify(input.options) : null,
        input.tool ? JSON.stringify(input.tool) : null,
        input.permission ? JSON.stringify(input.permission) : null,
        input.forkId ?? null,
        input.elicitation ? JSON.stringify(input.elicitation) : null,
        now(),
      );
    return this.get(id)!;
  }

  get(id: string): Question | null {
    const row = this.db.prepare('SELECT * FROM questions WHERE id = ?').get(id) as QuestionRow | undefined;
    return row ? toQuestion(row) : null;
  }

  /** Every question of these turns, oldest first, grouped by turn. */
  forTurns(turnIds: string[]): Map<string, Question[]> {
    const result = new Map<string, Question[]>();
    if (turnIds.length === 0) return result;
    const rows = this.db
      .prepare(
        'SELECT * FROM questions WHERE turn_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid',
      )
      .all(JSON.stringify(turnIds)) as QuestionRow[];
    for (const row of rows) {
      const list = result.get(row.turn_id) ?? [];
      list.push(toQuestion(row));
      result.set(row.turn_id, list);
    }
    return result;
  }

  pending(sessionId: string): Question[] {
    return (
      this.db
        .prepare(
          "SELECT * FROM questions WHERE session_id = ? AND status = 'pending' ORDER BY created_at, rowid",
        )
        .all(sessionId) as QuestionRow[]
    ).map(toQuestion);
  }

  /** Marks a pending question answered; false when it was no longer pending. */
  answer(id: string, answer: string): boolean {
    return (
      this.db
        .prepare(
          "UPDATE questions SET status = 'answered', answer = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
        )
        .run(answer, now(), id).changes > 0
    );
  }

  /** Closes every pending question of a turn but those in `keep`; returns the ids closed. */
  closeForTurn(turnId: string, keep: readonly string[] = []): string[] {
    const rows = this.db
      .prepare(
        `UPDATE questions SET status = 'closed' WHERE turn_id = ? AND status = 'pending'
           AND id NOT IN (SELECT value FROM json_each(?)) RETURNING id`,
      )
      .all(turnId, JSON.stringify(keep)) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Closes one pending question; false when it was no longer pending. */
  close(id: string): boolean {
    return (
      this.db.prepare("UPDATE questions SET status = 'closed' WHERE id = ? AND status = 'pending'").run(id)
        .changes > 0
    );
  }

  /** The pending questions asked by these tool calls. */
  pendingForToolCalls(toolCallIds: readonly string[]): Question[] {
    if (toolCallIds.length === 0) return [];
    return (
      this.db
        .prepare(
          `SELECT * FROM questions WHERE status = 'pending'
             AND tool_call_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
        )
        .all(JSON.stringify(toolCallIds)) as QuestionRow[]
    ).map(toQuestion);
  }
}
