import { makeOwnerOnlyDir } from '../config/owner-only-files';
import { CairnError } from '../errors';
import { type Logger, silentLogger } from '../log/logger';
import { requireSandbox, type SandboxSpec } from '../process/sandbox';
import type { KernelHandle } from './kernel-handle';
import { KernelProcess } from './kernel-process';
import { DEFAULT_LIMITS, type KernelLimits } from './kernel-types';
import { resolvePython } from './python-resolver';
import { type SessionKernelConfig, SessionKernels } from './session-kernels';
import { type KernelSpec, specKey, WarmPool } from './warm-pool';

/** A Jupyter Server to start kernels on, with its token and the kernelspec to start. */
export interface JupyterTarget {
  baseUrl: string;
  token: string;
  kernelName: string;
}

export interface KernelManagerOptions {
  /**
   * The environment local kernels get: Cairn's own, scrubbed of secrets (tools/child-env's childEnv()).
   * A function, so a secret registered after start-up (a key saved later) is scrubbed from later kernels too.
   */
  env: () => NodeJS.ProcessEnv;
  /**
   * What local kernels add to `env` so cells can call Cairn's tools: CAIRN_TOOL_ENDPOINT and the client on
   * PYTHONPATH (given `env`, to extend it). Asked at each local start, the warm spare's included; each agent
   * cell's token comes with its execution (ExecuteOptions.toolToken). Kernels on a Jupyter Server get none.
   */
  scriptEnv?: (base: NodeJS.ProcessEnv) => Promise<NodeJS.ProcessEnv>;
  /**
   * Where new kernels start: a Jupyter Server, or null for this machine. Asked at each start, so a changed
   * setting applies to the next kernel; kernels already running stay where they are.
   */
  remote?: () => Promise<JupyterTarget | null>;
  driverPath?: string;
  /** Use IPython where importable (default); false runs the stdlib driver everywhere. */
  ipython?: boolean;
  /** Keep a started spare kernel per interpreter and folder (default true). */
  warm?: boolean;
  limits?: Partial<KernelLimits>;
  readyTimeoutMs?: number;
  logger?: Logger;
}

interface OpenSession {
  kernels: SessionKernels;
  config: SessionKernelConfig;
  /** The resolved interpreter and folder; dropped on failure so a later call looks again. */
  spec: Promise<BaseSpec> | null;
  /** The configured interpreter `spec` was resolved for: a changed setting resolves again. */
  specFor: string | null;
  /** What the session's last local kernel started with (its sandbox included), whose spare a change ends. */
  lastSpec: KernelSpec | null;
}

/** A kernel's spec but its sandbox, which is asked at each start. */
type BaseSpec = Omit<KernelSpec, 'sandbox'>;

/**
 * Python kernels for all sessions: each session's kernels by name, a warm spare per interpreter, and
 * shutdown that leaves no process behind.
 */
export class KernelManager {
  private readonly sessions = new Map<string, OpenSession>();
  private readonly pool: WarmPool;
  private readonly logger: Logger;
  private readonly limits: KernelLimits;

  constructor(private readonly opts: KernelManagerOptions) {
    this.logger = opts.logger ?? silentLogger;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.pool = new WarmPool((spec) => this.start(spec), this.logger);
  }

  /**
   * The kernels of a session, opened on first call (later calls return the same object). Opening runs
   * nothing: finding the interpreter runs the project's `.venv` Python and a kernel's start may import
   * project files, so no project code runs before a kernel is first used. That first use starts the warm
   * spare (WarmPool.take), so later kernels and restarts need not wait for Python.
   */
  openSession(sessionId: string, config: SessionKernelConfig): SessionKernels {
    const existing = this.sessions.get(sessionId);
    if (existing) return existing.kernels;
    const open: OpenSession = {
      config,
      spec: null,
      specFor: null,
      lastSpec: null,
      kernels: new SessionKernels(sessionId, config, {
        acquire: () => this.acquire(open),
        limits: this.limits,
        logger: this.logger,
      }),
    };
    this.sessions.set(sessionId, open);
    return open.kernels;
  }

  session(sessionId: string): SessionKernels | undefined {
    return this.sessions.get(sessionId)?.kernels;
  }

  /** Kills the session's kernels, and the warm spare when no other open session needs it. */
  async shutdownSession(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (!open) return;
    this.sessions.delete(sessionId);
    await open.kernels.shutdown();
    if (open.spec) await this.disposeUnusedSpare(open.spec);
  }

  /** Kills the warm spare of a spec no open session resolves to any more. */
  private async disposeUnusedSpare(specPromise: Promise<BaseSpec>): Promise<void> {
    const base = await specPromise.catch(() => null);
    if (!base) return;
    // The spare shared between sessions is the unsandboxed one (a sandboxed spec names its session's folders).
    const spec: KernelSpec = { ...base, sandbox: null };
    const key = specKey(spec);
    for (const other of this.sessions.values()) {
      if (other.spec === specPromise) continue;
      const otherSpec = await other.spec?.catch(() => null);
      if (otherSpec && specKey({ ...otherSpec, sandbox: null }) === key) return;
    }
    await this.pool.dispose(spec);
  }

  /**
   * The session's settings changed (its project's sandbox): its kernels are restarted under the new ones and
   * the spare started under the old ones is ended, so nothing keeps running as it was.
   */
  async restartSession(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (!open) return;
    const last = open.lastSpec;
    open.lastSpec = null;
    if (last) await this.pool.dispose(last);
    await open.kernels.restartStarted();
  }

  async shutdownAll(): Promise<void> {
    const ids = [...this.sessions.keys()];
    await Promise.all(ids.map((id) => this.shutdownSession(id)));
    await this.pool.disposeAll();
  }

  /** Pids of the warm spares that are up (diagnostics). */
  warmPids(): number[] {
    return this.pool.pids();
  }

  /** The interpreter and folder for the session's next kernel; the project's setting is read each time. */
  private specOf(open: OpenSession, sandbox: SandboxSpec | null): Promise<BaseSpec> {
    const configured = open.config.pythonPath ?? null;
    // Checked again when the sandbox changes: the check runs inside it.
    const specFor = JSON.stringify([configured, sandbox]);
    if (open.spec && open.specFor === specFor) return open.spec;
    if (open.spec) void this.disposeUnusedSpare(open.spec);
    open.specFor = specFor;
    const { config } = open;
    const cwd = config.projectRoot ?? config.kernelsDir;
    const spec = (async (): Promise<BaseSpec> => {
      if (!config.projectRoot) makeOwnerOnlyDir(cwd);
      const python = await resolvePython({
        projectRoot: config.projectRoot,
        configuredPath: configured,
        configuredBy: config.pythonPathFrom,
        env: this.opts.env(),
        sandbox,
      });
      return {
        python: { command: python.command, args: python.args },
        cwd,
        ipython: this.opts.ipython !== false,
      };
    })();
    open.spec = spec;
    // A failure is not kept: the user may install Python and try again.
    spec.catch(() => {
      if (open.spec === spec) open.spec = null;
    });
    return spec;
  }

  /**
   * Checks that a kernel of this session can start where kernels start now: on this machine, that Python is
   * there (python_not_found otherwise). A Jupyter Server is checked by starting the kernel itself.
   */
  async preflight(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (!open) return;
    const sandbox = await this.sandboxOf(open, Boolean(await this.opts.remote?.()));
    if (sandbox === 'remote') return;
    await this.specOf(open, sandbox);
  }

  /**
   * The sandbox a kernel of this session starts in: throws sandbox_unavailable when it cannot run here, or
   * when kernels start on a Jupyter Server, which no sandbox of this machine can confine. `remote` when
   * kernels start there (and no sandbox is asked for).
   */
  private async sandboxOf(open: OpenSession, remote: boolean): Promise<SandboxSpec | null | 'remote'> {
    const sandbox = (await open.config.sandbox?.()) ?? null;
    if (remote) {
      if (!sandbox) return 'remote';
      throw new CairnError(
        'sandbox_unavailable',
        "This project runs what the agent starts in a sandbox, which a kernel on a Jupyter Server cannot have. Start kernels on this machine (Settings → Python kernels), or turn the project's sandbox off.",
      );
    }
    if (sandbox) requireSandbox(sandbox.bwrap);
    return sandbox;
  }

  private async acquire(open: OpenSession): Promise<{ process: KernelHandle; warm: boolean }> {
    const remote = await this.opts.remote?.();
    const sandbox = await this.sandboxOf(open, Boolean(remote));
    if (remote && sandbox === 'remote') {
      // Loaded on first use: most people never use a Jupyter Server, and the library is large.
      const { JupyterKernel } = await import('./jupyter/jupyter-kernel');
      const process = await JupyterKernel.start({
        baseUrl: remote.baseUrl,
        token: remote.token,
        kernelName: remote.kernelName,
        logger: this.logger,
      });
      return { process, warm: false };
    }
    const local = sandbox === 'remote' ? null : sandbox;
    const spec: KernelSpec = { ...(await this.specOf(open, local)), sandbox: local };
    // A sandboxed spec is this session's alone: its spare under an older one has nobody else to serve.
    const last = open.lastSpec;
    if (last?.sandbox && specKey(last) !== specKey(spec)) void this.pool.dispose(last);
    open.lastSpec = spec;
    if (this.opts.warm !== false) {
      const spare = await this.pool.take(spec);
      if (spare) return { process: spare, warm: true };
    }
    return { process: await this.start(spec), warm: false };
  }

  private async start(spec: KernelSpec): Promise<KernelProcess> {
    return KernelProcess.start({
      python: spec.python,
      cwd: spec.cwd,
      env: await this.localEnv(),
      ipython: spec.ipython,
      sandbox: spec.sandbox,
      ...(this.opts.driverPath ? { driverPath: this.opts.driverPath } : {}),
      ...(this.opts.readyTimeoutMs ? { readyTimeoutMs: this.opts.readyTimeoutMs } : {}),
      logger: this.logger,
    });
  }

  /** A local kernel's environment; without the tool endpoint when it cannot be had (a kernel still starts). */
  private async localEnv(): Promise<NodeJS.ProcessEnv> {
    const base = this.opts.env();
    if (!this.opts.scriptEnv) return base;
    try {
      return { ...base, ...(await this.opts.scriptEnv(base)) };
    } catch (err) {
      this.logger.warn("a kernel starts without Cairn's tool endpoint", { error: String(err) });
      return base;
    }
  }
}
