import { type BackendInfo, RemoteBackendInput } from '../../sidecar/src/protocol/host';
import type { RemoteBackend } from './remote-backend';
import { backendFromEnvironment, RemoteBackendError, validateRemoteUrl } from './remote-backend';
import type { RemoteBackendCheck } from './remote-backend-check';

/** A sidecar supervisor's state, as far as the host reads it. */
export interface SidecarStateLike {
  readonly kind: string;
  readonly message?: string;
  readonly stderrTail?: string;
  readonly diagnosticsFile?: string | null;
}

/** What the host needs of sidecar/sidecar-supervisor.ts's SidecarSupervisor. */
export interface SidecarSupervisorLike {
  start(): unknown;
  backend(): Promise<{ url: string; token: string }>;
  onStateChange(listener: (state: SidecarStateLike) => void): unknown;
  stop(): Promise<void>;
}

/** The saved remote backend (RemoteBackendStore). */
export interface RemoteBackendSettings {
  get(): Promise<RemoteBackend | null>;
  set(backend: RemoteBackend): Promise<void>;
  clear(): Promise<void>;
}

export interface BackendControllerOptions {
  env: Record<string, string | undefined>;
  settings: RemoteBackendSettings;
  createSupervisor: () => SidecarSupervisorLike;
  check: (url: string, token: string) => Promise<RemoteBackendCheck>;
  /** The current local sidecar failed for good (the supervisor gave up). */
  onSidecarFailed: (state: SidecarStateLike) => void;
  /** Something the user should know that does not stop the app. */
  onWarning: (message: string) => void;
}

type Mode =
  | { kind: 'none' }
  | { kind: 'local'; supervisor: SidecarSupervisorLike }
  | { kind: 'remote'; backend: RemoteBackend; source: 'settings' | 'environment' };

/**
 * Which backend the renderer talks to, and the switch between them: a local sidecar this app
 * supervises, or a remote one from the environment (which wins) or the settings. In remote mode no
 * sidecar runs at all. Switches run one at a time.
 */
export class BackendController {
  private mode: Mode = { kind: 'none' };
  private queue: Promise<void> = Promise.resolve();
  private fromEnvironment = false;
  private stopped = false;

  constructor(private readonly options: BackendControllerOptions) {}

  get modeKind(): Mode['kind'] {
    return this.mode.kind;
  }

  /**
   * Chooses the backend at launch. Throws when CAIRN_BACKEND_URL/TOKEN are set wrongly: starting
   * something else than what the environment asked for would hide the mistake.
   */
  init(): Promise<void> {
    return this.serialize(async () => {
      const environment = backendFromEnvironment(this.options.env);
      if (environment) {
        this.fromEnvironment = true;
        this.mode = { kind: 'remote', backend: environment, source: 'environment' };
        return;
      }
      let saved: RemoteBackend | null = null;
      try {
        saved = await this.options.settings.get();
      } catch (error) {
        this.options.onWarning(
          `The remote backend saved in settings could not be read (${messageOf(error)}). ` +
            'Cairn starts its own local backend instead.',
        );
      }
      if (saved) this.mode = { kind: 'remote', backend: saved, source: 'settings' };
      else this.startLocal();
    });
  }

  /** The backend to use now; waits for a local sidecar to be ready. */
  async backend(): Promise<BackendInfo> {
    await this.queue;
    const mode = this.mode;
    if (mode.kind === 'remote') {
      return { url: mode.backend.url, token: mode.backend.token, mode: 'remote', source: mode.source };
    }
    if (mode.kind === 'local') {
      const { url, token } = await mode.supervisor.backend();
      return { url, token, mode: 'local', source: 'local' };
    }
    throw new Error('Cairn is shutting down; no backend is available.');
  }

  /** Checks and saves a remote backend from settings, then stops the local sidecar if one runs. */
  async setRemote(input: unknown): Promise<void> {
    const parsed = RemoteBackendInput.safeParse(input);
    if (!parsed.success) {
      throw new RemoteBackendError('A remote backend needs a URL and a token (up to 4096 characters).');
    }
    this.refuseWhenEnvironmentDecides();
    const url = validateRemoteUrl(parsed.data.url);
    const token = parsed.data.token.trim();
    if (!token) throw new RemoteBackendError('The token is empty. Copy it from the server.');
    // Checked before anything changes, so a wrong address or token leaves the app as it was.
    const check = await this.options.check(url, token);
    if (!check.ok) throw new RemoteBackendError(check.message);
    await this.serialize(async () => {
      await this.options.settings.set({ url, token });
      const previous = this.mode;
      this.mode = { kind: 'remote', backend: { url, token }, source: 'settings' };
      if (previous.kind === 'local') await previous.supervisor.stop();
    });
  }

  /** Forgets the saved remote backend and starts the local sidecar. */
  async clearRemote(): Promise<void> {
    this.refuseWhenEnvironmentDecides();
    await this.serialize(async () => {
      await this.options.settings.clear();
      if (this.mode.kind === 'remote' && !this.stopped) this.startLocal();
    });
  }

  /** Stops the local sidecar, if any, and waits for it; nothing starts afterwards. */
  stop(): Promise<void> {
    return this.serialize(async () => {
      this.stopped = true;
      const previous = this.mode;
      this.mode = { kind: 'none' };
      if (previous.kind === 'local') await previous.supervisor.stop();
    });
  }

  private refuseWhenEnvironmentDecides(): void {
    if (this.fromEnvironment) {
      throw new RemoteBackendError(
        'The backend is set by CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN in the environment, which take ' +
          'precedence. Unset both and restart Cairn to choose the backend here.',
      );
    }
  }

  private startLocal(): void {
    const supervisor = this.options.createSupervisor();
    this.mode = { kind: 'local', supervisor };
    supervisor.onStateChange((state) => {
      // A supervisor that was replaced or stopped on purpose has nothing to report.
      const current = this.mode.kind === 'local' && this.mode.supervisor === supervisor;
      if (state.kind === 'failed' && current && !this.stopped) this.options.onSidecarFailed(state);
    });
    // Failures arrive as the 'failed' state; a rejection here would only repeat it.
    void Promise.resolve()
      .then(() => supervisor.start())
      .catch(() => undefined);
  }

  private serialize<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
