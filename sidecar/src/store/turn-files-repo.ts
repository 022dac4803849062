import type { FileNotRestored, TurnKind, TurnStatus } from '../protocol';
import type { Db } from './database';

/** What a turn recorded of the project's files: snapshot trees (ids in the project's snapshot store). */
export interface TurnFiles {
  turnId: string;
  sessionId: string;
  ordinal: number;
  kind: TurnKind;
  status: TurnStatus;
  /** The tree before the turn ran; null where nothing was recorded. */
  before: string | null;
  /** The tree as the turn ended; null while it runs, or where it ended without one (a crash). */
  after: string | null;
  changed: number | null;
  /** Why the files were not recorded (too many, unreadable…); null when they were. */
  note: string | null;
  /** Paths the turn's recording changed outside its tool calls (the user's, another program's). */
  foreign: string[];
  createdAt: string;
  finishedAt: string | null;
}

interface Row {
  id: string;
  session_id: string;
  ordinal: number;
  kind: TurnKind;
  status: TurnStatus;
  files_before: string | null;
  files_after: string | null;
  files_changed: number | null;
  files_note: string | null;
  files_foreign: string | null;
  created_at: string;
  finished_at: string | null;
}

/** Turns as `t`: the columns a TurnFiles is read from. */
const SELECT = `SELECT t.id, t.session_id, t.ordinal, t.kind, t.status, t.files_before, t.files_after,
  t.files_changed, t.files_note, t.files_foreign, t.created_at, t.finished_at FROM turns t`;

const toFiles = (row: Row): TurnFiles => ({
  turnId: row.id,
  sessionId: row.session_id,
  ordinal: row.ordinal,
  kind: row.kind,
  status: row.status,
  before: row.files_before,
  after: row.files_after,
  changed: row.files_changed,
  note: row.files_note,
  foreign: row.files_foreign ? (JSON.parse(row.files_foreign) as string[]) : [],
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

/** The file recordings of turns: written as a turn starts and ends, read for its changes and reverts. */
export class TurnFilesRepo {
  constructor(private readonly db: Db) {}

  get(turnId: string): TurnFiles | null {
    const row = this.db.prepare(`${SELECT} WHERE t.id = ?`).get(turnId) as Row | undefined;
    return row ? toFiles(row) : null;
  }

  /** The session's turns from `ordinal` on (all of them without), oldest first. */
  ofSession(sessionId: string, fromOrdinal = 0): TurnFiles[] {
    return (
      this.db
        .prepare(`${SELECT} WHERE t.session_id = ? AND t.ordinal >= ? ORDER BY t.ordinal`)
        .all(sessionId, fromOrdinal) as Row[]
    ).map(toFiles);
  }

  setBefore(turnId: string, tree: string): void {
    this.db.prepare('UPDATE turns SET files_before = ?, files_note = NULL WHERE id = ?').run(tree, turnId);
  }

  setAfter(turnId: string, tree: string, changed: number, foreign: string[] = []): void {
    this.db
      .prepare('UPDATE turns SET files_after = ?, files_changed = ?, files_foreign = ? WHERE id = ?')
      .run(tree, changed, foreign.length > 0 ? JSON.stringify(foreign) : null, turnId);
  }

  /**
   * When the turn's tool calls ran (from creation to end; null: still running), its forks' included: the
   * only times the turn itself can have changed files.
   */
  toolCallWindows(turnId: string): { start: string; end: string | null }[] {
    return this.db
      .prepare(
        `SELECT started_at AS start, finished_at AS end FROM tool_calls WHERE turn_id = ?
         UNION ALL
         SELECT c.started_at, c.finished_at FROM tool_calls c JOIN sessions s ON s.id = c.session_id
         WHERE s.parent_turn_id = ?`,
      )
      .all(turnId, turnId) as { start: string; end: string | null }[];
  }

  /**
   * Recorded turns of the project's other sessions that ran at or after `since` (ISO time), or still run:
   * what they changed is not the reverting session's.
   */
  othersInProjectSince(projectId: string, sessionId: string, since: string): TurnFiles[] {
    return (
      this.db
        .prepare(
          `${SELECT} JOIN sessions s ON s.id = t.session_id
           WHERE s.project_id = ? AND t.session_id != ? AND t.files_before IS NOT NULL
             AND (t.finished_at IS NULL OR t.finished_at >= ?)`,
        )
        .all(projectId, sessionId, since) as Row[]
    ).map(toFiles);
  }

  /** A revert's files it could not put back. */
  setNotRestored(turnId: string, notRestored: FileNotRestored[]): void {
    this.db
      .prepare('UPDATE turns SET files_not_restored = ? WHERE id = ?')
      .run(notRestored.length > 0 ? JSON.stringify(notRestored) : null, turnId);
  }

  /** The files were not (or no longer) recorded: why, for the turn's changes to say. */
  setNote(turnId: string, note: string): void {
    this.db.prepare('UPDATE turns SET files_note = ? WHERE id = ?').run(note, turnId);
  }

  /** The turns restored (reverted to before) since the session's last prompt, oldest revert first. */
  revertedSinceLastPrompt(sessionId: string): { kind: TurnKind; prompt: string }[] {
    return this.db
      .prepare(
        `SELECT r.kind, r.prompt FROM turns t JOIN turns r ON r.id = t.reverted_turn_id
         WHERE t.session_id = ? AND t.kind = 'revert' AND t.files_before IS NOT NULL AND t.ordinal >
           COALESCE((SELECT MAX(ordinal) FROM turns WHERE session_id = ? AND kind = 'prompt'), 0)
         ORDER BY t.ordinal`,
      )
      .all(sessionId, sessionId) as { kind: TurnKind; prompt: string }[];
  }

  /** Every tree the project's turns recorded (its sessions', branches' and forks'): what must be kept. */
  treesOfProject(projectId: string): string[] {
    const rows = this.db
      .prepare(
        `SELECT t.files_before AS a, t.files_after AS b FROM turns t JOIN sessions s ON s.id = t.session_id
         WHERE s.project_id = ? AND (t.files_before IS NOT NULL OR t.files_after IS NOT NULL)`,
      )
      .all(projectId) as { a: string | null; b: string | null }[];
    return [...new Set(rows.flatMap((r) => [r.a, r.b]).filter((id): id is string => id !== null))];
  }
}
