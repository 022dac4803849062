import type { AgentRuntime } from '../../agent/agent-runtime';
import { badRequest, CairnError, notFound } from '../../errors';
import type {
  CreateSessionRequest,
  ForkInfo,
  ListSessionsQuery,
  Session,
  SessionDetail,
  UpdateSessionRequest,
} from '../../protocol';
import type { Store } from '../../store/store';
import type { ToolCallFiles } from '../../tools/tool-call-files';
import { requireProject } from './session-project';
import type { SessionResource } from './session-resources';

export interface SessionServiceDeps {
  store: Store;
  runtime: AgentRuntime;
  files: ToolCallFiles;
  /** What each session holds besides its rows and files (kernels, MCP connections). */
  resources: SessionResource[];
  conversationOnly: boolean;
  /** Whether this server runs Python kernels (code mode's steps run in one). */
  hasKernels: boolean;
  /** The forks a session's turns spawned, with their status and response. */
  forks: { list(parentSessionId: string): ForkInfo[] };
  /** Called after a session of a project is deleted: the recordings only it used can go. */
  projectSessionDeleted?: (projectId: string) => void;
}

/** Sessions: made in a project or as plain conversations, listed, renamed, switched in mode, deleted. */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  create(request: CreateSessionRequest): Session {
    const { store } = this.deps;
    const projectId = request.project_id ?? null;
    if (projectId !== null) requireProject(store, projectId, this.deps.conversationOnly);
    if (request.mode === 'code') this.requireKernels(projectId);
    return store.sessions.create({
      projectId,
      title: request.title,
      approval: request.approval,
      mode: request.mode,
    });
  }

  list(query: ListSessionsQuery): Session[] {
    return this.deps.store.sessions.list(query.project_id, { includeForks: query.include_forks });
  }

  get(id: string): Session {
    const session = this.deps.store.sessions.get(id);
    if (!session) throw notFound('Session', id);
    return session;
  }

  /** A session with its forks (none for a fork, which spawns none), the sessions branched from it, and its usage. */
  detail(id: string): SessionDetail {
    const { store } = this.deps;
    return {
      ...this.get(id),
      forks: this.deps.forks.list(id),
      branches: store.sessions.branches(id),
      usage: store.turns.sessionUsage(id),
    };
  }

  update(id: string, patch: UpdateSessionRequest): Session {
    if (patch.mode !== undefined) {
      const current = this.get(id);
      // A running turn's loop was chosen at its start: switching under it would mix the two.
      if (current.running_turn_id !== null) {
        throw new CairnError(
          'turn_running',
          `Turn ${current.running_turn_id} is running in this session: switch its mode once the turn ends (or cancel it).`,
        );
      }
      if (patch.mode === 'code') this.requireKernels(current.project_id);
    }
    const session = this.deps.store.sessions.update(id, patch);
    if (!session) throw notFound('Session', id);
    return session;
  }

  /** Code mode's steps run in the session's kernel: it needs a project, on a server that runs kernels. */
  private requireKernels(projectId: string | null): void {
    if (!this.deps.hasKernels) {
      throw badRequest(
        'Code mode needs Python kernels, which this server does not run (it is conversation-only).',
      );
    }
    if (projectId === null) {
      throw badRequest(
        "Code mode needs a project (its code runs in the project's Python kernel): this session has none.",
      );
    }
  }

  /**
   * Cancels its turns, releases its kernels and MCP servers, then removes its rows and files; its forks go
   * with it (its turn's end cancels them first).
   */
  async delete(id: string): Promise<void> {
    const projectId = this.get(id).project_id;
    const forks = this.deps.store.sessions.forks(id).map((f) => f.id);
    await this.release([id, ...forks]);
    // The forks' rows go with their parent's (ON DELETE CASCADE).
    this.deps.store.sessions.delete(id);
    this.removeFiles([id, ...forks]);
    if (projectId) this.deps.projectSessionDeleted?.(projectId);
  }

  /**
   * Stops everything the sessions run (turns, kernels, MCP servers), before they are deleted with their
   * project; their files go too. The rows are left to the caller's delete.
   */
  async release(ids: string[]): Promise<void> {
    const { runtime, resources, store } = this.deps;
    // Parents first: their turns' ends cancel their forks, queued ones included, so none starts meanwhile.
    const isFork = (id: string) => (store.sessions.get(id)?.parent_session_id ?? null) !== null;
    await Promise.all(ids.filter((id) => !isFork(id)).map((id) => runtime.cancelSessionTurns(id)));
    await Promise.all(ids.filter(isFork).map((id) => runtime.cancelSessionTurns(id)));
    for (const resource of resources) await Promise.all(ids.map((id) => resource.closeSession(id)));
  }

  /** The session's files (tool-call results), once its rows are gone. */
  removeFiles(ids: string[]): void {
    for (const id of ids) this.deps.files.removeSession(id);
  }
}
