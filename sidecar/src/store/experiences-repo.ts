import type { Experience, ExperienceScope } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

/** Experiences: short facts or lessons kept for a session or for every session of a project. */
export class ExperiencesRepo {
  constructor(private readonly db: Db) {}

  create(input: {
    scope: ExperienceScope;
    sessionId: string | null;
    projectId: string | null;
    text: string;
    author: Experience['author'];
    /** A copy (a fork's) keeps its original's time, so the list keeps its order. */
    createdAt?: string;
  }): Experience {
    const id = newId('exp');
    const time = now();
    this.db
      .prepare(
        `INSERT INTO experiences (id, scope, session_id, project_id, text, author, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        input.scope,
        input.sessionId,
        input.projectId,
        input.text,
        input.author,
        input.createdAt ?? time,
        time,
      );
    return this.get(id)!;
  }

  get(id: string): Experience | null {
    return (
      (this.db.prepare('SELECT * FROM experiences WHERE id = ?').get(id) as Experience | undefined) ?? null
    );
  }

  /** What a session's agent sees: its own experiences and its project's, oldest first. */
  forSession(sessionId: string, projectId: string | null): Experience[] {
    return this.db
      .prepare(
        `SELECT * FROM experiences
         WHERE (scope = 'session' AND session_id = ?) OR (scope = 'project' AND project_id IS NOT NULL AND project_id = ?)
         ORDER BY created_at, rowid`,
      )
      .all(sessionId, projectId) as Experience[];
  }

  forProject(projectId: string): Experience[] {
    return this.db
      .prepare(
        "SELECT * FROM experiences WHERE scope = 'project' AND project_id = ? ORDER BY created_at, rowid",
      )
      .all(projectId) as Experience[];
  }

  update(
    id: string,
    patch: { text: string; scope: ExperienceScope; sessionId: string | null; projectId: string | null },
  ): Experience | null {
    const changes = this.db
      .prepare(
        'UPDATE experiences SET text = ?, scope = ?, session_id = ?, project_id = ?, updated_at = ? WHERE id = ?',
      )
      .run(patch.text, patch.scope, patch.sessionId, patch.projectId, now(), id).changes;
    return changes > 0 ? this.get(id) : null;
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM experiences WHERE id = ?').run(id).changes > 0;
  }
}
