import type { ApprovalMode, BranchInfo, Session, SessionMode } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

/** The name a session has until its first prompt names it. */
export const DEFAULT_SESSION_TITLE = 'New session';

interface SessionRow {
  id: string;
  project_id: string | null;
  title: string;
  approval: ApprovalMode;
  mode: SessionMode;
  created_at: string;
  updated_at: string;
  running_turn_id: string | null;
  parent_session_id: string | null;
  parent_turn_id: string | null;
  branched_from_session_id: string | null;
  branched_from_turn_id: string | null;
}

const toSession = ({ branched_from_session_id, branched_from_turn_id, ...row }: SessionRow): Session => ({
  ...row,
  branched_from:
    branched_from_session_id && branched_from_turn_id
      ? { session_id: branched_from_session_id, turn_id: branched_from_turn_id }
      : null,
});

/** What makes a session a fork: its parent, the turn that spawned it, its task and the tools it may use. */
export interface ForkOrigin {
  parentSessionId: string;
  parentTurnId: string;
  task: string;
  /** The names of the tools it gets; null: the parent's. */
  tools: string[] | null;
}

/** A fork's start: the parent's context before the spawning request, as the fork's first version holds it. */
export interface InitialContext {
  edited: unknown[];
  systemAddition: string | null;
}

const SELECT = `SELECT s.id, s.project_id, s.title, s.approval, s.mode, s.created_at, s.updated_at,
  s.parent_session_id, s.parent_turn_id, s.branched_from_session_id, s.branched_from_turn_id,
  (SELECT t.id FROM turns t WHERE t.session_id = s.id AND t.status = 'running' LIMIT 1) AS running_turn_id
  FROM sessions s`;

export class SessionsRepo {
  constructor(private readonly db: Db) {}

  create(input: {
    /** An id made beforehand (an import writes the session's files first); a new one by default. */
    id?: string | undefined;
    projectId: string | null;
    title?: string | undefined;
    approval?: ApprovalMode | undefined;
    mode?: SessionMode | undefined;
    fork?: ForkOrigin | undefined;
    initialContext?: InitialContext | undefined;
  }): Session {
    const time = now();
    const id = input.id ?? newId('ses');
    const versionId = newId('ctx');
    const { fork, initialContext } = input;
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO sessions (id, project_id, title, approval, created_at, updated_at, context_head,
             parent_session_id, parent_turn_id, fork_task, fork_tools, mode) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          input.projectId,
          input.title ?? DEFAULT_SESSION_TITLE,
          input.approval ?? 'auto',
          time,
          time,
          versionId,
          fork?.parentSessionId ?? null,
          fork?.parentTurnId ?? null,
          fork?.task ?? null,
          fork?.tools ? JSON.stringify(fork.tools) : null,
          input.mode ?? 'tools',
        );
      this.db
        .prepare(
          `INSERT INTO context_versions (id, session_id, number, parent_id, first_message_id, summary, reason,
             edited, system_addition, created_at) VALUES (?, ?, 1, NULL, NULL, NULL, ?, ?, ?, ?)`,
        )
        .run(
          versionId,
          id,
          initialContext ? 'fork' : 'initial',
          initialContext ? JSON.stringify(initialContext.edited) : null,
          initialContext?.systemAddition ?? null,
          time,
        );
    })();
    return this.get(id)!;
  }

  get(id: string): Session | null {
    const row = this.db.prepare(`${SELECT} WHERE s.id = ?`).get(id) as SessionRow | undefined;
    return row ? toSession(row) : null;
  }

  /** Newest first; forks only when asked for. */
  list(projectId?: string, options: { includeForks?: boolean } = {}): Session[] {
    const where: string[] = [];
    const args: string[] = [];
    if (projectId !== undefined) {
      where.push('s.project_id = ?');
      args.push(projectId);
    }
    if (!options.includeForks) where.push('s.parent_session_id IS NULL');
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    return (
      this.db.prepare(`${SELECT} ${clause} ORDER BY s.updated_at DESC`).all(...args) as SessionRow[]
    ).map(toSession);
  }

  /** A session's forks, oldest first. */
  forks(parentSessionId: string): Session[] {
    return (
      this.db
        .prepare(`${SELECT} WHERE s.parent_session_id = ? ORDER BY s.created_at, s.rowid`)
        .all(parentSessionId) as SessionRow[]
    ).map(toSession);
  }

  /** The sessions branched from this one, oldest first. */
  branches(sessionId: string): BranchInfo[] {
    return this.db
      .prepare(
        `SELECT id AS session_id, title, branched_from_turn_id AS turn_id, created_at FROM sessions
         WHERE branched_from_session_id = ? ORDER BY created_at, rowid`,
      )
      .all(sessionId) as BranchInfo[];
  }

  /** What made a session a fork; null for a session of its own. */
  forkOrigin(id: string): ForkOrigin | null {
    const row = this.db
      .prepare('SELECT parent_session_id, parent_turn_id, fork_task, fork_tools FROM sessions WHERE id = ?')
      .get(id) as
      | {
          parent_session_id: string | null;
          parent_turn_id: string | null;
          fork_task: string | null;
          fork_tools: string | null;
        }
      | undefined;
    if (!row?.parent_session_id || !row.parent_turn_id) return null;
    return {
      parentSessionId: row.parent_session_id,
      parentTurnId: row.parent_turn_id,
      task: row.fork_task ?? '',
      tools: row.fork_tools ? (JSON.parse(row.fork_tools) as string[]) : null,
    };
  }

  listIdsByProject(projectId: string): string[] {
    return (
      this.db.prepare('SELECT id FROM sessions WHERE project_id = ?').all(projectId) as { id: string }[]
    ).map((r) => r.id);
  }

  update(
    id: string,
    patch: {
      title?: string | undefined;
      approval?: ApprovalMode | undefined;
      mode?: SessionMode | undefined;
    },
  ): Session | null {
    const current = this.get(id);
    if (!current) return null;
    this.db
      .prepare('UPDATE sessions SET title = ?, approval = ?, mode = ?, updated_at = ? WHERE id = ?')
      .run(
        patch.title ?? current.title,
        patch.approval ?? current.approval,
        patch.mode ?? current.mode,
        now(),
        id,
      );
    return this.get(id);
  }

  /** What Cairn remembers of the session's last model request (JSON, read by the context layer). */
  lastRequest(id: string): unknown {
    const row = this.db.prepare('SELECT last_request FROM sessions WHERE id = ?').get(id) as
      | { last_request: string | null }
      | undefined;
    return row?.last_request ? (JSON.parse(row.last_request) as unknown) : null;
  }

  /** The newest last request of another session, one of the same project first (a new session's best guess). */
  neighbourLastRequest(id: string): unknown {
    const row = this.db
      .prepare(
        `SELECT other.last_request FROM sessions other JOIN sessions me ON me.id = ?
         WHERE other.id <> me.id AND other.last_request IS NOT NULL
         ORDER BY (other.project_id IS me.project_id) DESC, other.updated_at DESC, other.rowid DESC LIMIT 1`,
      )
      .get(id) as { last_request: string } | undefined;
    return row ? (JSON.parse(row.last_request) as unknown) : null;
  }

  setLastRequest(id: string, value: unknown): void {
    this.db.prepare('UPDATE sessions SET last_request = ? WHERE id = ?').run(JSON.stringify(value), id);
  }

  touch(id: string): void {
    this.db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(now(), id);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id).changes > 0;
  }
}
