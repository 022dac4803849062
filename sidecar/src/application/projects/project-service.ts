import fs from 'node:fs';
import path from 'node:path';
import { badRequest, CairnError, notFound } from '../../errors';
import type { Project, UpdateProjectRequest } from '../../protocol';
import type { Store } from '../../store/store';
import type { SnapshotStores } from '../../tools/snapshots/project-snapshots';
import { requirePart } from '../part';
import type { SessionService } from '../sessions/session-service';
import type { ProjectPythonService } from './project-python';
import type { ProjectSandboxService } from './project-sandbox';

/** Projects: folders on this machine, opened by path, listed, and deleted with their sessions. */
export class ProjectService {
  constructor(
    private readonly deps: {
      store: Store;
      sessions: SessionService;
      conversationOnly: boolean;
      /** The kernels' interpreter setting; null where there are none. */
      python: ProjectPythonService | null;
      sandbox: ProjectSandboxService;
      /** The recordings of projects' files (turn changes, reverts): a deleted project's go with it. */
      snapshots: SnapshotStores;
    },
  ) {}

  /** Opens a project by folder: the path must be an existing directory on this machine. */
  open(requested: string): Project {
    this.refuseWithoutProjects();
    if (!path.isAbsolute(requested)) {
      throw badRequest(`The project path must be absolute (got "${requested}").`);
    }
    let real: string;
    try {
      // The native realpath also settles letter case and short names, as the file tools' checks do.
      real = fs.realpathSync.native(requested);
    } catch {
      throw badRequest(`The folder ${requested} does not exist on the machine running Cairn.`);
    }
    if (!fs.statSync(real).isDirectory()) throw badRequest(`${requested} is a file, not a folder.`);
    return this.deps.store.projects.upsertByPath(real);
  }

  list(): Project[] {
    this.refuseWithoutProjects();
    return this.deps.store.projects.list();
  }

  /**
   * Changes the project's settings given (PATCH /api/projects/{id}): the interpreter is checked first, then
   * the sandbox (refused where it cannot run), so a refused change leaves both as they were.
   */
  async update(id: string, patch: UpdateProjectRequest): Promise<Project> {
    this.refuseWithoutProjects();
    const { store } = this.deps;
    if (!store.projects.get(id)) throw notFound('Project', id);
    if (patch.sandbox === 'on') this.deps.sandbox.check();
    let project: Project | null = null;
    if (patch.python_path !== undefined) {
      project = await requirePart(this.deps.python, 'Python kernels').set(id, patch.python_path);
    }
    if (patch.sandbox !== undefined || patch.sandbox_network !== undefined) {
      project = await this.deps.sandbox.update(id, {
        sandbox: patch.sandbox,
        sandbox_network: patch.sandbox_network,
      });
    }
    return project ?? store.projects.get(id)!;
  }

  /** Stops the project's sessions (turns, kernels, MCP servers), then removes it with them. */
  async delete(id: string): Promise<void> {
    this.refuseWithoutProjects();
    const { store, sessions } = this.deps;
    if (!store.projects.get(id)) throw notFound('Project', id);
    const ids = store.sessions.listIdsByProject(id);
    await sessions.release(ids);
    store.projects.delete(id);
    sessions.removeFiles(ids);
    await this.deps.snapshots.remove(id);
  }

  private refuseWithoutProjects(): void {
    if (this.deps.conversationOnly) {
      throw new CairnError(
        'conversation_only',
        'This Cairn server runs conversation-only: it has no projects.',
      );
    }
  }
}
