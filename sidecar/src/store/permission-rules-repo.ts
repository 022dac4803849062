import type { PermissionAction, PermissionRule } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

/** Permission rules: global (no project, no session), a project's, or a session's. */
export class PermissionRulesRepo {
  constructor(private readonly db: Db) {}

  create(input: {
    tool: string;
    pattern: string | null;
    action: PermissionAction;
    projectId: string | null;
    sessionId: string | null;
  }): PermissionRule {
    const id = newId('rule');
    this.db
      .prepare(
        `INSERT INTO permission_rules (id, tool, pattern, action, project_id, session_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, input.tool, input.pattern, input.action, input.projectId, input.sessionId, now());
    return this.get(id)!;
  }

  get(id: string): PermissionRule | null {
    return (
      (this.db.prepare('SELECT * FROM permission_rules WHERE id = ?').get(id) as
        | PermissionRule
        | undefined) ?? null
    );
  }

  /** Every rule, or those of one scope: a project's (its sessions' too), a session's, or the global ones. */
  list(filter: { projectId?: string; sessionId?: string; globalOnly?: boolean } = {}): PermissionRule[] {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.globalOnly) where.push('project_id IS NULL AND session_id IS NULL');
    if (filter.projectId !== undefined) {
      where.push('project_id = ?');
      args.push(filter.projectId);
    }
    if (filter.sessionId !== undefined) {
      where.push('session_id = ?');
      args.push(filter.sessionId);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    return this.db
      .prepare(`SELECT * FROM permission_rules ${clause} ORDER BY created_at, rowid`)
      .all(...args) as PermissionRule[];
  }

  /** The rules a call in this scope obeys: the global ones, its project's, its session's and (a fork) its parent's. */
  applicable(projectId: string | null, sessionId: string | null): PermissionRule[] {
    return this.db
      .prepare(
        `SELECT * FROM permission_rules
         WHERE (project_id IS NULL AND session_id IS NULL)
            OR (project_id IS NOT NULL AND project_id = ? AND session_id IS NULL)
            OR (session_id IS NOT NULL AND session_id = ?)
            OR (session_id IS NOT NULL AND session_id = (SELECT parent_session_id FROM sessions WHERE id = ?))
         ORDER BY created_at, rowid`,
      )
      .all(projectId, sessionId, sessionId) as PermissionRule[];
  }

  update(
    id: string,
    patch: {
      tool?: string | undefined;
      pattern?: string | null | undefined;
      action?: PermissionAction | undefined;
    },
  ): PermissionRule | null {
    const current = this.get(id);
    if (!current) return null;
    this.db
      .prepare('UPDATE permission_rules SET tool = ?, pattern = ?, action = ? WHERE id = ?')
      .run(
        patch.tool ?? current.tool,
        patch.pattern === undefined ? current.pattern : patch.pattern,
        patch.action ?? current.action,
        id,
      );
    return this.get(id);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM permission_rules WHERE id = ?').run(id).changes > 0;
  }
}
