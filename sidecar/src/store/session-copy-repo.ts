import path from 'node:path';
import type { Db } from './database';
import { newId, now } from './ids';
import { indexSession } from './search-backfill';
import { copyContextVersions } from './session-copy-versions';

/** What a branch copies: the parent, the turn it ends at, and how its file paths move. */
export interface BranchCopy {
  branchId: string;
  parentId: string;
  /** The last turn the branch holds (its ordinal and those before are copied). */
  turnId: string;
  title: string;
  /** The parent's tool-call folder and the branch's, as they appear in stored text (file paths). */
  parentResultsDir: string;
  branchResultsDir: string;
}

/** A path as it appears inside stored JSON text (backslashes escaped on Windows). */
const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * Copies a session's history up to a turn into a new session, in SQL (INSERT … SELECT over temporary id
 * maps), in one transaction: branching a session of ten thousand turns takes one pass over its rows.
 * Message ids are integers in insertion order, so the copies get a contiguous block in the same order.
 */
export class SessionCopyRepo {
  constructor(private readonly db: Db) {
    // Ids in the format every repository uses (newId), made inside SQL.
    db.function('cairn_new_id', { deterministic: false }, (prefix: unknown) => newId(String(prefix)));
  }

  /**
   * The result folders of the calls a branch at this turn copies (copied before the rows): each named by the
   * folder its result file is in, since a branch's calls keep their parent's folder names, else by its id.
   */
  toolCallFoldersUpTo(sessionId: string, turnOrdinal: number): string[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.result_file FROM tool_calls c JOIN turns t ON t.id = c.turn_id
         WHERE c.session_id = ? AND t.ordinal <= ?`,
      )
      .all(sessionId, turnOrdinal) as { id: string; result_file: string | null }[];
    return [...new Set(rows.map((r) => (r.result_file ? path.basename(path.dirname(r.result_file)) : r.id)))];
  }

  /** One transaction: the branch exists whole or not at all, searchable as its parent is. */
  branch(copy: BranchCopy): void {
    this.db.transaction(() => {
      this.copyAll(copy);
      indexSession(this.db, copy.branchId);
    })();
  }

  private copyAll(copy: BranchCopy): void {
    const { db } = this;
    const { branchId, parentId } = copy;
    const turn = db
      .prepare('SELECT ordinal FROM turns WHERE id = ? AND session_id = ?')
      .get(copy.turnId, parentId) as { ordinal: number } | undefined;
    if (!turn) throw new Error(`turn ${copy.turnId} is not in session ${parentId}`);
    this.resetMaps();
    const time = now();
    // No last_request: the parent's latest describes its whole history, not the branch's (its size estimate
    // would count every message after it, which is all of the branch's).
    db.prepare(
      `INSERT INTO sessions (id, project_id, title, approval, mode, created_at, updated_at, last_request,
         branched_from_session_id, branched_from_turn_id)
       SELECT ?, project_id, ?, approval, mode, ?, ?, NULL, id, ? FROM sessions WHERE id = ?`,
    ).run(branchId, copy.title, time, time, copy.turnId, parentId);

    db.prepare(
      `INSERT INTO temp.copy_turns (old, new) SELECT id, cairn_new_id('trn') FROM turns
       WHERE session_id = ? AND ordinal <= ?`,
    ).run(parentId, turn.ordinal);
    db.prepare(
      `INSERT INTO turns (id, session_id, ordinal, request_id, prompt, status, error_code, error_message,
         input_tokens, output_tokens, continuations, created_at, finished_at, cache_read_input_tokens,
         cache_creation_input_tokens, answer, model_config_id, kind, reverted_turn_id, files_before,
         files_after, files_changed, files_note)
       SELECT m.new, ?, ordinal, request_id, prompt, status, error_code, error_message, input_tokens,
         output_tokens, continuations, created_at, finished_at, cache_read_input_tokens,
         cache_creation_input_tokens, answer, model_config_id, kind,
         (SELECT r.new FROM temp.copy_turns r WHERE r.old = t.reverted_turn_id), files_before, files_after,
         files_changed, files_note
       FROM turns t JOIN temp.copy_turns m ON m.old = t.id ORDER BY t.ordinal`,
    ).run(branchId);

    this.copyMessages(copy);
    this.copyToolCalls(copy);
    this.copyQuestions(branchId);
    this.copyEvents(copy);
    this.copySessionScoped(branchId, parentId);
    const [from, to] = [jsonEscaped(copy.parentResultsDir), jsonEscaped(copy.branchResultsDir)];
    copyContextVersions(db, {
      branchId,
      parentId,
      turnOrdinal: turn.ordinal,
      movePaths: (text) => text.split(from).join(to),
    });
  }

  private resetMaps(): void {
    for (const [name, type] of [
      ['copy_turns', 'TEXT'],
      ['copy_messages', 'INTEGER'],
      ['copy_calls', 'TEXT'],
      ['copy_questions', 'TEXT'],
    ] as const) {
      this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${name} (old ${type} PRIMARY KEY, new ${type} NOT NULL)`);
      this.db.exec(`DELETE FROM temp.${name}`);
    }
  }

  /** New ids: a block after the highest id ever used (AUTOINCREMENT never reuses), in the same order. */
  private copyMessages(copy: BranchCopy): void {
    const { db } = this;
    const { base } = db
      .prepare(
        `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0),
           COALESCE((SELECT MAX(id) FROM messages), 0)) AS base`,
      )
      .get() as { base: number };
    const last = db
      .prepare(
        `SELECT MAX(id) AS id FROM messages WHERE session_id = ? AND turn_id IN (SELECT old FROM temp.copy_turns)`,
      )
      .get(copy.parentId) as { id: number | null };
    db.prepare(
      `INSERT INTO temp.copy_messages (old, new)
       SELECT id, ? + ROW_NUMBER() OVER (ORDER BY id) FROM messages
       WHERE session_id = ? AND id <= ? AND (turn_id IS NULL OR turn_id IN (SELECT old FROM temp.copy_turns))`,
    ).run(base, copy.parentId, last.id ?? 0);
    db.prepare(
      `INSERT INTO messages (id, session_id, turn_id, role, content, internal, created_at)
       SELECT mm.new, ?, tm.new, role, replace(content, ?, ?), internal, created_at
       FROM messages m JOIN temp.copy_messages mm ON mm.old = m.id LEFT JOIN temp.copy_turns tm ON tm.old = m.turn_id
       ORDER BY m.id`,
    ).run(copy.branchId, jsonEscaped(copy.parentResultsDir), jsonEscaped(copy.branchResultsDir));
  }

  /**
   * Result files keep their folder names under the branch's folder, so paths in messages move by prefix.
   * A call still running in the parent (a background one) runs nowhere in the branch: it comes over
   * interrupted, as an import brings it, and its pending questions closed (no one waits on their answer).
   */
  private copyToolCalls(copy: BranchCopy): void {
    const { db } = this;
    db.prepare(
      `INSERT INTO temp.copy_calls (old, new) SELECT id, cairn_new_id('tc') FROM tool_calls
       WHERE session_id = ? AND turn_id IN (SELECT old FROM temp.copy_turns)`,
    ).run(copy.parentId);
    db.prepare(
      `INSERT INTO tool_calls (id, session_id, turn_id, tool_use_id, name, input, status, is_error, preview,
         result_file, started_at, finished_at, duration_ms, parent_tool_call_id, background, exit_code, meta)
       SELECT cm.new, ?, tm.new, tool_use_id, name, input,
         CASE WHEN status IN ('running', 'waiting_approval') THEN 'interrupted' ELSE status END, is_error, preview,
         CASE WHEN result_file IS NULL THEN NULL ELSE ? || substr(result_file, ? + 1) END,
         started_at, CASE WHEN status IN ('running', 'waiting_approval') THEN COALESCE(finished_at, ?) ELSE finished_at END,
         duration_ms, pm.new, background, exit_code, meta
       FROM tool_calls c JOIN temp.copy_calls cm ON cm.old = c.id JOIN temp.copy_turns tm ON tm.old = c.turn_id
       LEFT JOIN temp.copy_calls pm ON pm.old = c.parent_tool_call_id ORDER BY c.rowid`,
    ).run(copy.branchId, copy.branchResultsDir, copy.parentResultsDir.length, now());
  }

  private copyQuestions(branchId: string): void {
    const { db } = this;
    db.exec(
      `INSERT INTO temp.copy_questions (old, new) SELECT id, cairn_new_id('q') FROM questions
       WHERE turn_id IN (SELECT old FROM temp.copy_turns)`,
    );
    db.prepare(
      `INSERT INTO questions (id, session_id, turn_id, tool_call_id, kind, question, options, tool, status, answer,
         created_at, answered_at, permission, fork_id, elicitation)
       SELECT qm.new, ?, tm.new, cm.new, kind, question, options, tool,
         CASE WHEN status = 'pending' THEN 'closed' ELSE status END, answer, created_at, answered_at,
         permission, fork_id, elicitation
       FROM questions q JOIN temp.copy_questions qm ON qm.old = q.id JOIN temp.copy_turns tm ON tm.old = q.turn_id
       LEFT JOIN temp.copy_calls cm ON cm.old = q.tool_call_id ORDER BY q.rowid`,
    ).run(branchId);
  }

  /**
   * The journal up to the turn's last event: its turns' events and the session's own (turn_id null), numbered
   * afresh, with the ids the UI joins on (calls, questions, messages) mapped to the copies.
   */
  private copyEvents(copy: BranchCopy): void {
    const { db } = this;
    const last = db
      .prepare(
        `SELECT MAX(seq) AS seq FROM events WHERE session_id = ? AND turn_id IN (SELECT old FROM temp.copy_turns)`,
      )
      .get(copy.parentId) as { seq: number | null };
    const mapped = (path: string, map: string) =>
      `'${path}', COALESCE((SELECT new FROM temp.${map} WHERE old = json_extract(e.data, '${path}')), json_extract(e.data, '${path}'))`;
    const data = 'replace(e.data, @from, @to)';
    // Only the ids each type carries are looked up: a long journal is mostly other events.
    const info = db
      .prepare(
        `INSERT INTO events (session_id, seq, turn_id, type, time, data)
         SELECT @branch, ROW_NUMBER() OVER (ORDER BY e.seq), tm.new, e.type, e.time,
           CASE
             WHEN e.type = 'message.completed' THEN json_replace(${data}, ${mapped('$.message.id', 'copy_messages')},
               ${mapped('$.message.turn_id', 'copy_turns')})
             WHEN e.type IN ('tool.started', 'tool.running', 'tool.output', 'tool.progress', 'tool.finished', 'kernel.execution_started')
               THEN json_replace(${data}, ${mapped('$.tool_call_id', 'copy_calls')},
                 ${mapped('$.parent_tool_call_id', 'copy_calls')})
             WHEN e.type = 'question.required' THEN json_replace(${data}, ${mapped('$.question.id', 'copy_questions')},
               ${mapped('$.question.turn_id', 'copy_turns')}, ${mapped('$.question.tool_call_id', 'copy_calls')},
               '$.question.session_id', @branch)
             WHEN e.type IN ('question.answered', 'question.closed')
               THEN json_replace(${data}, ${mapped('$.question_id', 'copy_questions')})
             ELSE ${data}
           END
         FROM events e LEFT JOIN temp.copy_turns tm ON tm.old = e.turn_id
         WHERE e.session_id = @parent AND e.seq <= @upto AND (e.turn_id IS NULL OR tm.new IS NOT NULL)
         ORDER BY e.seq`,
      )
      .run({
        from: jsonEscaped(copy.parentResultsDir),
        to: jsonEscaped(copy.branchResultsDir),
        branch: copy.branchId,
        parent: copy.parentId,
        upto: last.seq ?? 0,
      });
    db.prepare('UPDATE sessions SET last_seq = ? WHERE id = ?').run(info.changes, copy.branchId);
  }

  /** The parent's artifacts that the branch's copied kernel events show (their files are copied next). */
  artifactsShown(branchId: string, parentId: string): { id: string; path: string }[] {
    return this.db
      .prepare(
        `SELECT id, path FROM artifacts WHERE session_id = ? AND execution_id IN
           (SELECT json_extract(data, '$.execution_id') FROM events WHERE session_id = ? AND substr(type, 1, 7) = 'kernel.')
         ORDER BY rowid`,
      )
      .all(parentId, branchId) as { id: string; path: string }[];
  }

  /** Registers a copy of an artifact for the branch and points the branch's events at it. */
  addArtifactCopy(branchId: string, oldId: string, newId: string, newPath: string): void {
    this.db
      .prepare(
        `INSERT INTO artifacts (id, session_id, kernel, execution_id, mime, bytes, path, created_at)
         SELECT ?, ?, kernel, execution_id, mime, bytes, ?, created_at FROM artifacts WHERE id = ?`,
      )
      .run(newId, branchId, newPath, oldId);
    this.db
      .prepare(
        `UPDATE events SET data = replace(data, ?, ?) WHERE session_id = ? AND substr(type, 1, 7) = 'kernel.'
           AND instr(data, ?) > 0`,
      )
      .run(`"${oldId}"`, `"${newId}"`, branchId, `"${oldId}"`);
  }

  /** The parent's session-scoped experiences and permission rules hold for the branch too. */
  private copySessionScoped(branchId: string, parentId: string): void {
    const { db } = this;
    db.prepare(
      `INSERT INTO experiences (id, scope, session_id, project_id, text, author, created_at, updated_at)
       SELECT cairn_new_id('exp'), scope, ?, project_id, text, author, created_at, updated_at
       FROM experiences WHERE session_id = ? ORDER BY rowid`,
    ).run(branchId, parentId);
    db.prepare(
      `INSERT INTO permission_rules (id, tool, pattern, action, project_id, session_id, created_at)
       SELECT cairn_new_id('rule'), tool, pattern, action, project_id, ?, created_at
       FROM permission_rules WHERE session_id = ? ORDER BY rowid`,
    ).run(branchId, parentId);
  }
}
