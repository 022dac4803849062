import path from 'node:path';
import { badRequest, notFound } from '../errors';
import type { Logger } from '../log/logger';
import type { SandboxSpec } from '../process/sandbox';
import { ArtifactStore } from './artifact-store';
import type { KernelHandle } from './kernel-handle';
import type { KernelEventListener, KernelInfo, KernelLimits } from './kernel-types';
import { ManagedKernel } from './managed-kernel';
import type { PythonSetting } from './python-resolver';

export const DEFAULT_KERNEL = 'default';

/** Kernel names become folder names; keep them plain. */
const KERNEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Where a session's kernels run and keep their files, and who hears about them. */
export interface SessionKernelConfig {
  /** The project folder: the kernels' working folder and where `.venv`/`venv` are looked for. */
  projectRoot: string | null;
  /** The interpreter set for the project, if any. */
  pythonPath?: string | null;
  /** Who set pythonPath (messages say what to fix); the project's settings unless said. */
  pythonPathFrom?: PythonSetting;
  /** `<kernelsDir>/<name>/executions.jsonl` is each kernel's audit log, e.g. `<data>/sessions/<sid>/kernels`. */
  kernelsDir: string;
  /** Where images and other rich outputs are saved. */
  artifactsDir: string;
  limits?: Partial<KernelLimits>;
  onEvent?: KernelEventListener;
  /** The project's sandbox, asked at each kernel start (a changed setting applies); absent or null: none. */
  sandbox?: () => Promise<SandboxSpec | null>;
}

/** The kernels of one session, by name; created on first use. */
export class SessionKernels {
  private readonly kernels = new Map<string, ManagedKernel>();
  private readonly artifacts: ArtifactStore;
  private closed = false;

  constructor(
    readonly sessionId: string,
    private readonly config: SessionKernelConfig,
    private readonly deps: {
      acquire: () => Promise<{ process: KernelHandle; warm: boolean }>;
      limits: KernelLimits;
      logger: Logger;
    },
  ) {
    this.artifacts = new ArtifactStore(config.artifactsDir, deps.logger.child({ session_id: sessionId }));
  }

  /** The kernel of that name, created (not yet started) when it does not exist. */
  kernel(name: string = DEFAULT_KERNEL): ManagedKernel {
    const existing = this.kernels.get(name);
    if (existing) return existing;
    if (!KERNEL_NAME.test(name)) {
      throw badRequest(
        `"${name}" is not a valid kernel name: use 1 to 64 letters, digits, "-" or "_", starting with a letter or digit.`,
      );
    }
    if (this.closed) throw badRequest(`The kernels of session ${this.sessionId} were shut down.`);
    const kernel = new ManagedKernel({
      name,
      acquire: this.deps.acquire,
      limits: { ...this.deps.limits, ...this.config.limits },
      auditDir: path.join(this.config.kernelsDir, name),
      artifacts: this.artifacts,
      onEvent: this.config.onEvent ?? (() => {}),
      logger: this.deps.logger.child({ session_id: this.sessionId, kernel: name }),
    });
    this.kernels.set(name, kernel);
    return kernel;
  }

  /** A kernel that must exist already (interrupt, input, variables of a kernel nobody used are errors). */
  existing(name: string = DEFAULT_KERNEL): ManagedKernel {
    const kernel = this.kernels.get(name);
    if (!kernel) throw notFound('Kernel', name);
    return kernel;
  }

  list(): KernelInfo[] {
    return [...this.kernels.values()].map((k) => k.info());
  }

  /**
   * Restarts every kernel that has a process (or is starting one), e.g. under a changed sandbox setting:
   * each says at its next call that its state was lost. A kernel that cannot start again is left dead.
   */
  async restartStarted(): Promise<void> {
    const started = [...this.kernels.values()].filter(
      (k) => !['not_started', 'dead'].includes(k.info().state),
    );
    await Promise.all(
      started.map((k) =>
        k
          .restart()
          .catch((error: unknown) =>
            this.deps.logger.warn('a kernel did not start again', { kernel: k.name, error: String(error) }),
          ),
      ),
    );
  }

  /** Kills every kernel of the session with its whole process group. */
  async shutdown(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.kernels.values()].map((k) => k.shutdown()));
  }
}
