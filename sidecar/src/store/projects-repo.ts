import path from 'node:path';
import type { Project } from '../protocol';
import type { Db } from './database';
import { newId, now } from './ids';

export class ProjectsRepo {
  constructor(private readonly db: Db) {}

  /** Returns the project for this folder, creating it the first time; reopening bumps last_opened_at. */
  upsertByPath(folder: string): Project {
    const existing = this.db.prepare('SELECT * FROM projects WHERE path = ?').get(folder) as
      | Project
      | undefined;
    const time = now();
    if (existing) {
      this.db.prepare('UPDATE projects SET last_opened_at = ? WHERE id = ?').run(time, existing.id);
      return { ...existing, last_opened_at: time };
    }
    const project: Project = {
      id: newId('prj'),
      path: folder,
      name: path.basename(folder) || folder,
      created_at: time,
      last_opened_at: time,
      python_path: null,
      sandbox: 'off',
      sandbox_network: 'on',
    };
    this.db
      .prepare(
        'INSERT INTO projects (id, path, name, created_at, last_opened_at, python_path, sandbox, sandbox_network) VALUES (@id, @path, @name, @created_at, @last_opened_at, @python_path, @sandbox, @sandbox_network)',
      )
      .run(project);
    return project;
  }

  get(id: string): Project | null {
    return (this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as Project | undefined) ?? null;
  }

  /** Sets or clears (null) the interpreter of the project's kernels; null when there is no such project. */
  setPythonPath(id: string, pythonPath: string | null): Project | null {
    this.db.prepare('UPDATE projects SET python_path = ? WHERE id = ?').run(pythonPath, id);
    return this.get(id);
  }

  /** Sets the project's sandbox settings given; null when there is no such project. */
  setSandbox(
    id: string,
    patch: {
      sandbox?: Project['sandbox'] | undefined;
      sandbox_network?: Project['sandbox_network'] | undefined;
    },
  ): Project | null {
    if (patch.sandbox !== undefined) {
      this.db.prepare('UPDATE projects SET sandbox = ? WHERE id = ?').run(patch.sandbox, id);
    }
    if (patch.sandbox_network !== undefined) {
      this.db.prepare('UPDATE projects SET sandbox_network = ? WHERE id = ?').run(patch.sandbox_network, id);
    }
    return this.get(id);
  }

  list(): Project[] {
    return this.db.prepare('SELECT * FROM projects ORDER BY last_opened_at DESC').all() as Project[];
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM projects WHERE id = ?').run(id).changes > 0;
  }
}
