import fs from 'node:fs';
import path from 'node:path';
import { badRequest, CairnError, notFound } from '../../errors';
import type { KernelManager } from '../../kernels/kernel-manager';
import type { KernelInfo as ManagedKernelInfo } from '../../kernels/kernel-types';
import type { ManagedKernel } from '../../kernels/managed-kernel';
import type { SessionKernels } from '../../kernels/session-kernels';
import type { Logger } from '../../log/logger';
import type { SandboxSpec } from '../../process/sandbox';
import type { KernelInfo, KernelVariable, Notebook, SummaryKernelVariable } from '../../protocol';
import type { Store } from '../../store/store';
import { kernelTools } from '../../tools/builtin';
import type { KernelToolService } from '../../tools/kernel-service';
import { resolveProjectRoot } from '../../tools/project-root';
import type { Tool } from '../../tools/tool';
import type { ToolScope, ToolSource } from '../../tools/tool-source';
import type { ProjectPythonService } from '../projects/project-python';
import type { SessionResource } from '../sessions/session-resources';
import { KernelEventRouter } from './kernel-event-router';
import { buildNotebook } from './notebook-export';

/** Per kernel, the variables and repr length a summary keeps. */
const INVENTORY_MAX = 60;
const INVENTORY_REPR = 160;

/** Artifact ids are random (see kernels/artifact-store.ts); anything else is refused before a lookup. */
const ARTIFACT_ID = /^art_[A-Za-z0-9_-]{8,64}$/;

export interface KernelServiceOptions {
  manager: KernelManager;
  store: Store;
  dataDir: string;
  /** Which interpreter each project's kernels start with. */
  python: ProjectPythonService;
  logger: Logger;
  /** The sandbox of a session's project, asked at each kernel start (ProjectSandboxService.forSession). */
  sandbox?: (sessionId: string) => Promise<SandboxSpec | null>;
}

interface OpenKernels {
  kernels: SessionKernels;
  router: KernelEventRouter;
}

/** A saved output, ready to be sent. */
export interface ArtifactFile {
  path: string;
  mime: string;
  bytes: number;
  /** Its bytes, streamed from disk. */
  open(): fs.ReadStream;
}

/**
 * The sessions' Python kernels as Cairn uses them: for the agent's tools (bound to a turn) and for the
 * API (the user's own cells). Puts every kernel event on the session's journal, and ends a session's
 * kernels when the session goes.
 *
 * The interpreter: CAIRN_KERNEL_PYTHON, else the project's python_path, else its `.venv`/`venv`, else
 * `python3`. The project's setting is read each time a kernel starts, so a changed setting applies to the
 * next kernel started (a restart included); kernels running keep their interpreter.
 */
export class KernelService implements ToolSource, SessionResource {
  private readonly open = new Map<string, OpenKernels>();
  private closed = false;

  constructor(private readonly options: KernelServiceOptions) {}

  /** The kernel tools of a turn in a project (none without one, or once shut down). */
  async toolsForTurn(scope: ToolScope): Promise<Tool[]> {
    if (scope.projectRoot === null) return [];
    const kernels = this.forTurn(scope.sessionId, scope.turnId);
    return kernels ? kernelTools(kernels) : [];
  }

  /**
   * The kernel tools of one turn; null once shut down. Opening the session's kernels starts nothing:
   * no project Python runs until the agent or the user first runs a cell (see KernelManager.openSession).
   */
  forTurn(sessionId: string, turnId: string): KernelToolService | null {
    if (this.closed) return null;
    const { kernels, router } = this.openSession(sessionId);
    return {
      execute: (name, code, call) => {
        const kernel = kernels.kernel(name);
        router.expect(name, { turnId, toolCallId: call.toolCallId });
        return kernel.execute(code, {
          signal: call.signal,
          toolToken: call.toolToken,
          onStream: call.onStream,
          ...(call.activeMs !== undefined ? { limits: { activeMs: call.activeMs } } : {}),
        });
      },
      reset: (name) => kernels.kernel(name).reset(),
      listVariables: (name) => kernels.kernel(name).listVariables(),
    };
  }

  /**
   * Runs the agent's own setup cell (code mode's prelude) in a session's kernel, outside any tool call: the
   * panel shows it as the turn's, and it needs no approval (it only defines functions).
   */
  async runSetupCell(
    sessionId: string,
    turnId: string,
    name: string,
    code: string,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; message: string }> {
    if (this.closed) return { ok: false, message: 'the kernels were shut down.' };
    const { kernels, router } = this.openSession(sessionId);
    router.expect(name, { turnId, toolCallId: null });
    const result = await kernels.kernel(name).execute(code, { signal });
    return { ok: result.success, message: result.error ? result.error.summary : '' };
  }

  list(sessionId: string): KernelInfo[] {
    this.requireSession(sessionId);
    return (this.open.get(sessionId)?.kernels.list() ?? []).map(wireInfo);
  }

  /**
   * Queues the user's cell and returns at once; its output arrives as `kernel.*` events. A kernel that
   * must start first checks for Python here, so a missing interpreter is this request's error.
   */
  async execute(sessionId: string, name: string, code: string): Promise<KernelInfo> {
    const open = this.openSession(sessionId);
    const kernel = open.kernels.kernel(name);
    const state = kernel.info().state;
    // A kernel that must start first: a missing interpreter is this request's error (nothing to check when
    // kernels start on a Jupyter Server, or while this one runs).
    if (state === 'not_started' || state === 'dead') await this.options.manager.preflight(sessionId);
    open.router.expect(name, { turnId: null, toolCallId: null });
    kernel.execute(code).catch((error: unknown) => {
      this.options.logger.warn('a user cell failed outside Python', { error: String(error) });
    });
    return wireInfo(kernel.info());
  }

  reply(sessionId: string, name: string, requestId: string, value: string): void {
    this.existing(sessionId, name).reply(requestId, value);
  }

  interrupt(sessionId: string, name: string): boolean {
    return this.existing(sessionId, name).interrupt();
  }

  async restart(sessionId: string, name: string): Promise<KernelInfo> {
    const kernel = this.existing(sessionId, name);
    await kernel.restart();
    return wireInfo(kernel.info());
  }

  /**
   * The user's variables. While a cell runs they cannot be read (the kernel is busy with it), so the API
   * says so at once instead of holding the request until the cell ends; the agent's tool waits its turn.
   */
  async variables(sessionId: string, name: string): Promise<KernelVariable[]> {
    const kernel = this.existing(sessionId, name);
    const { state } = kernel.info();
    if (state === 'busy' || state === 'waiting_input') {
      throw new CairnError(
        'conflict',
        `The kernel "${name}" is running a cell; its variables can be listed when the cell has finished.`,
      );
    }
    return kernel.listVariables();
  }

  /**
   * What the session's idle kernels hold, for a Turn or Session summary: a busy kernel is skipped (reading
   * it would wait for its cell), and long reprs are clipped so the summary stays small.
   */
  async inventory(sessionId: string): Promise<SummaryKernelVariable[]> {
    const kernels = this.open.get(sessionId)?.kernels;
    if (!kernels) return [];
    const result: SummaryKernelVariable[] = [];
    for (const info of kernels.list()) {
      if (info.state !== 'idle') continue;
      try {
        const variables = await kernels.existing(info.name).listVariables();
        for (const v of variables.slice(0, INVENTORY_MAX)) {
          result.push({
            kernel: info.name,
            name: v.name,
            type: v.type,
            repr: v.repr.slice(0, INVENTORY_REPR),
          });
        }
      } catch (error) {
        this.options.logger.warn('kernel variables not read for a summary', { kernel: info.name, error });
      }
    }
    return result;
  }

  /** The kernel's history as a notebook: every execution the journal holds, live kernel or not. */
  notebook(sessionId: string, name: string): Notebook {
    this.requireSession(sessionId);
    const events = this.options.store.events.withTypePrefix(sessionId, 'kernel.');
    const known =
      this.open
        .get(sessionId)
        ?.kernels.list()
        .some((k) => k.name === name) ||
      events.some((e) => e.type === 'kernel.execution_started' && e.kernel === name);
    if (!known) throw notFound('Kernel', name);
    return buildNotebook(events, name, (id) => {
      const file = this.artifact(id, false);
      if (!file) return null;
      try {
        return { mime: file.mime, data: fs.readFileSync(file.path) };
      } catch {
        return null;
      }
    });
  }

  /** A saved output by its id (random, so knowing it is what grants access, with the token). */
  artifact(id: string): ArtifactFile;
  artifact(id: string, required: false): ArtifactFile | null;
  artifact(id: string, required = true): ArtifactFile | null {
    const missing = () => {
      if (required) throw notFound('Artifact', id);
      return null;
    };
    if (!ARTIFACT_ID.test(id)) return missing();
    const record = this.options.store.artifacts.get(id);
    if (!record) return missing();
    // Rows are written by Cairn alone; still, only files under the data directory are ever served.
    const real = realpathOrNull(record.path);
    const root = realpathOrNull(this.options.dataDir);
    if (!real || !root || !real.startsWith(root + path.sep)) return missing();
    // The file's own size, which is what will be sent.
    const bytes = fs.statSync(real).size;
    return { path: real, mime: record.mime, bytes, open: () => fs.createReadStream(real) };
  }

  /** The sessions' project changed its sandbox: their running kernels restart under the new setting. */
  async sandboxChanged(sessionIds: readonly string[]): Promise<void> {
    await Promise.all(sessionIds.map((id) => this.options.manager.restartSession(id)));
  }

  /** Ends a session's kernels (its deletion). */
  async closeSession(sessionId: string): Promise<void> {
    this.open.delete(sessionId);
    await this.options.manager.shutdownSession(sessionId);
  }

  /** Ends every kernel and refuses new ones (Cairn is stopping). */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.open.clear();
    await this.options.manager.shutdownAll();
  }

  private openSession(sessionId: string): OpenKernels {
    if (this.closed) throw new CairnError('conflict', 'Cairn is shutting down; kernels cannot start now.');
    const existing = this.open.get(sessionId);
    if (existing) return existing;
    const session = this.requireSession(sessionId);
    const project = session.project_id ? this.options.store.projects.get(session.project_id) : null;
    if (!project) {
      throw badRequest(
        `Session ${sessionId} has no project. Python kernels run in a project's folder: start a session in a project to use them.`,
      );
    }
    const projectRoot = resolveProjectRoot(project.path);
    const projectId = project.id;
    const { python } = this.options;
    const router = new KernelEventRouter(this.options.store, sessionId, this.options.logger);
    const sessionDir = path.join(this.options.dataDir, 'sessions', sessionId);
    const kernels = this.options.manager.openSession(sessionId, {
      projectRoot,
      // A getter, not a value: the manager reads it at each kernel start, so a changed setting applies.
      get pythonPath() {
        return python.configured(projectId);
      },
      get pythonPathFrom() {
        return python.configuredBy();
      },
      kernelsDir: path.join(sessionDir, 'kernels'),
      artifactsDir: path.join(sessionDir, 'artifacts'),
      onEvent: (event) => router.handle(event),
      ...(this.options.sandbox ? { sandbox: () => this.options.sandbox!(sessionId) } : {}),
    });
    const opened: OpenKernels = { kernels, router };
    this.open.set(sessionId, opened);
    return opened;
  }

  /** A kernel that has been used: input, interrupt, restart and variables of an unknown one are 404s. */
  private existing(sessionId: string, name: string): ManagedKernel {
    this.requireSession(sessionId);
    const open = this.open.get(sessionId);
    if (!open) throw notFound('Kernel', name);
    return open.kernels.existing(name);
  }

  private requireSession(sessionId: string) {
    const session = this.options.store.sessions.get(sessionId);
    if (!session) throw notFound('Session', sessionId);
    return session;
  }
}

function wireInfo(info: ManagedKernelInfo): KernelInfo {
  return {
    name: info.name,
    state: info.state,
    pid: info.pid,
    python: info.python,
    ipython: info.ipython,
    execution_count: info.executionCount,
  };
}

function realpathOrNull(file: string): string | null {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return null;
  }
}
