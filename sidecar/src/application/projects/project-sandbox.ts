import { makeOwnerOnlyDir } from '../../config/owner-only-files';
import { realDir } from '../../config/real-dir';
import { notFound } from '../../errors';
import type { Logger } from '../../log/logger';
import { requireSandbox, type SandboxSpec } from '../../process/sandbox';
import type { Project } from '../../protocol';
import type { Store } from '../../store/store';
import { resolveProjectRoot } from '../../tools/project-root';
import { pythonClientDir } from '../../tools/runtime/runtime-assets';
import type { ToolCallFiles } from '../../tools/tool-call-files';

export interface ProjectSandboxOptions {
  store: Store;
  files: ToolCallFiles;
  /** Cairn's data directory: hidden inside the sandbox. */
  dataDir: string;
  /** The folder of the `cairn` command scripts get on PATH (in the data directory): readable inside. */
  binDir: string;
  /** The folder of the tool endpoint's Unix socket, null where there is none: reachable inside. */
  socketDir: () => Promise<string | null>;
  /** The bubblewrap program (CAIRN_SANDBOX_BWRAP), `bwrap` on PATH by default. */
  bwrap?: string;
  logger: Logger;
}

/** Told when a project's sandbox setting changed, to stop what runs under the old one. */
export type SandboxChangeListener = (sessionIds: string[]) => Promise<void>;

/**
 * Each project's sandbox: its settings (PATCH /api/projects/{id}), and the spec the processes of its sessions
 * run in (Bash, Exec, kernels, loaded tools' workers), read as each starts. Turning it on where it cannot run
 * is refused with sandbox_unavailable; a change stops what runs under the old setting.
 */
export class ProjectSandboxService {
  private readonly listeners: SandboxChangeListener[] = [];

  constructor(private readonly options: ProjectSandboxOptions) {}

  get bwrap(): string {
    return this.options.bwrap ?? 'bwrap';
  }

  /** Throws sandbox_unavailable, saying what to install, when the sandbox cannot run here. */
  check(): void {
    requireSandbox(this.bwrap);
  }

  /** Called after each change with the project's session ids (kernels restart, loaded tools stop, …). */
  onChange(listener: SandboxChangeListener): void {
    this.listeners.push(listener);
  }

  /** Sets the sandbox settings given; `on` is refused (409 sandbox_unavailable) where it cannot run. */
  async update(
    projectId: string,
    patch: {
      sandbox?: Project['sandbox'] | undefined;
      sandbox_network?: Project['sandbox_network'] | undefined;
    },
  ): Promise<Project> {
    const { store, logger } = this.options;
    const before = store.projects.get(projectId);
    if (!before) throw notFound('Project', projectId);
    if (patch.sandbox === 'on') this.check();
    const after = store.projects.setSandbox(projectId, patch);
    if (!after) throw notFound('Project', projectId);
    const confined = (p: Project) => (p.sandbox === 'on' ? `on:${p.sandbox_network}` : 'off');
    if (confined(before) !== confined(after)) {
      const sessionIds = store.sessions.listIdsByProject(projectId);
      for (const listener of this.listeners) {
        await listener(sessionIds).catch((error: unknown) =>
          logger.warn('a sandbox change was not applied everywhere', { project_id: projectId, error }),
        );
      }
    }
    return after;
  }

  /** The spec a session's processes run in: null when its project's sandbox is off (or it has no project). */
  async forSession(sessionId: string): Promise<SandboxSpec | null> {
    const { store, files } = this.options;
    const projectId = store.sessions.get(sessionId)?.project_id ?? null;
    const base = projectId ? this.forProject(projectId) : null;
    if (!base) return null;
    const socketDir = await this.options.socketDir().catch(() => null);
    // Made now, so it can be bound in before the session's first call writes there.
    const results = files.sessionResultsDir(sessionId);
    makeOwnerOnlyDir(results);
    // A fork's processes may read its parent's results, which the context it started from names.
    const parent = store.sessions.forkOrigin(sessionId)?.parentSessionId;
    const readable = parent ? [...base.readable, files.sessionResultsDir(parent)] : base.readable;
    return { ...base, readable, writable: [results], sockets: socketDir ? [socketDir] : [] };
  }

  /**
   * The spec for what runs for a project outside any session (checking the Python its kernels would use):
   * the project writable and nothing of a session's. Null when its sandbox is off.
   */
  forProject(projectId: string): SandboxSpec | null {
    const { store, dataDir, binDir } = this.options;
    const project = store.projects.get(projectId);
    if (project?.sandbox !== 'on') return null;
    return {
      projectRoot: resolveProjectRoot(project.path),
      writable: [],
      hidden: [realDir(dataDir)],
      readable: [binDir, pythonClientDir()],
      sockets: [],
      network: project.sandbox_network !== 'off',
      bwrap: this.bwrap,
    };
  }
}
