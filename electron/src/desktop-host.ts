import { ExternalUrl } from '../../sidecar/src/protocol/host';
import { APP_ENTRY_URL, APP_SCHEME } from './app-origin';
import { serveAppRequest } from './app-protocol';
import {
  BackendController,
  type RemoteBackendSettings,
  type SidecarStateLike,
  type SidecarSupervisorLike,
} from './backend-controller';
import type { HostAdapter, HostWindow } from './host-adapter';
import { type HostPaths, hostPaths } from './host-paths';
import { IPC_CHANNELS, type IpcChannel, isTrustedSender } from './ipc-policy';
import { externalUrlToOpen, loginUrlToOpen } from './navigation-policy';
import { checkRemoteBackend, type RemoteBackendCheck } from './remote-backend-check';
import { RemoteBackendStore } from './remote-backend-store';
import { guardWindow } from './window-guards';
import { mainWindowOptions } from './window-options';

export interface DesktopHostOptions {
  adapter: HostAdapter;
  /** process.env; CAIRN_BACKEND_URL/TOKEN and CAIRN_DATA_DIR are read from it. */
  env: Record<string, string | undefined>;
  /** Makes the local sidecar's supervisor (not started yet). */
  createSupervisor: (paths: HostPaths) => SidecarSupervisorLike;
  /** Defaults to the real check over fetch. */
  checkRemote?: (url: string, token: string) => Promise<RemoteBackendCheck>;
  /** Defaults to a RemoteBackendStore in userData with the adapter's keychain. */
  settings?: RemoteBackendSettings;
  homeDir?: string;
  /** How long quitting waits for the sidecar to stop before leaving anyway. */
  stopTimeoutMs?: number;
}

/**
 * The main process's logic: one instance, one window showing app://cairn, the bridge's IPC
 * handlers, the backend (local sidecar or remote) and an orderly quit. main.ts only wires it to
 * Electron through an adapter.
 */
export class DesktopHost {
  readonly paths: HostPaths;
  readonly backends: BackendController;
  private window: HostWindow | null = null;
  private ready = false;
  private quitting: 'no' | 'stopping' | 'done' = 'no';

  constructor(private readonly options: DesktopHostOptions) {
    const { adapter } = options;
    this.paths = hostPaths(adapter.appPath, adapter.userDataDir, options.env, options.homeDir);
    this.backends = new BackendController({
      env: options.env,
      settings: options.settings ?? new RemoteBackendStore(adapter.userDataDir, adapter.keychain),
      createSupervisor: () => options.createSupervisor(this.paths),
      check: options.checkRemote ?? ((url, token) => checkRemoteBackend(url, token)),
      onSidecarFailed: (state) => this.sidecarFailed(state),
      onWarning: (message) => {
        adapter.log.warn(message);
        adapter.showError('Cairn', message);
      },
    });
  }

  get currentWindow(): HostWindow | null {
    return this.window;
  }

  /** Starts the app. Resolves false when this instance quits right away (second instance, bad setup). */
  async run(): Promise<boolean> {
    const { adapter } = this.options;
    if (!adapter.requestSingleInstanceLock()) {
      // Another Cairn owns the data directory and the window; it was told to show itself.
      adapter.quit();
      return false;
    }
    adapter.onSecondInstance(() => this.focusWindow());
    adapter.onBeforeQuit((event) => this.beforeQuit(event));
    adapter.onWindowAllClosed(() => {
      if (adapter.platform !== 'darwin') adapter.quit();
    });
    adapter.onActivate(() => {
      if (this.ready && !this.window && this.quitting === 'no') this.openWindow();
    });

    await adapter.whenReady();
    adapter.handleProtocol(APP_SCHEME, (request) => serveAppRequest(this.paths.rendererDir, request));
    this.registerIpc();
    try {
      await this.backends.init();
    } catch (error) {
      adapter.log.error(messageOf(error));
      adapter.showError('Cairn cannot start', messageOf(error));
      this.quitting = 'done';
      adapter.quit();
      return false;
    }
    this.ready = true;
    this.openWindow();
    return true;
  }

  private openWindow(): void {
    const { adapter } = this.options;
    const window = adapter.createWindow(mainWindowOptions(this.paths.preload));
    this.window = window;
    guardWindow(window, (url) => adapter.openExternal(url), adapter.log);
    window.onReadyToShow(() => window.show());
    window.onClosed(() => {
      if (this.window === window) this.window = null;
    });
    window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
      adapter.log.error(`The window could not load ${APP_ENTRY_URL}: ${messageOf(error)}`);
    });
  }

  private focusWindow(): void {
    const window = this.window;
    if (window && !window.isDestroyed()) window.focus();
    else if (this.ready && this.quitting === 'no') this.openWindow();
  }

  private registerIpc(): void {
    const { adapter } = this.options;
    const handle = (channel: IpcChannel, handler: (...args: unknown[]) => Promise<unknown>) => {
      adapter.handleIpc(channel, async (event, ...args) => {
        if (!isTrustedSender(event, this.window?.isDestroyed() ? null : this.window?.mainFrame)) {
          adapter.log.warn(`Refused ${channel} from a frame that is not the app's own page.`);
          throw new Error(`${channel} is only available to the Cairn window.`);
        }
        return handler(...args);
      });
    };

    handle(IPC_CHANNELS.getBackend, () => this.backends.backend());
    handle(IPC_CHANNELS.setRemoteBackend, async (input) => {
      await this.backends.setRemote(input);
      this.reloadSoon();
    });
    handle(IPC_CHANNELS.clearRemoteBackend, async () => {
      await this.backends.clearRemote();
      this.reloadSoon();
    });
    handle(IPC_CHANNELS.pickFolder, () => this.pickFolder());
    // Each policy checks its URLs again here: the page may be compromised.
    const openChecked = (policy: (url: string) => string | null, refusal: string) => async (raw: unknown) => {
      const parsed = ExternalUrl.safeParse(raw);
      const url = parsed.success ? policy(parsed.data) : null;
      if (!url) throw new Error(refusal);
      await adapter.openExternal(url);
    };
    handle(
      IPC_CHANNELS.openExternal,
      openChecked(
        externalUrlToOpen,
        'Only http:// and https:// links without a user name or password open in the browser.',
      ),
    );
    // An MCP server's login page: its own channel, so the stricter policy cannot be skipped by asking for a link.
    handle(
      IPC_CHANNELS.openLoginUrl,
      openChecked(
        loginUrlToOpen,
        'A login page opens in the browser only over https:// (or http:// to this computer), without a user name or password in its address.',
      ),
    );
    handle(IPC_CHANNELS.appVersion, async () => adapter.appVersion);
  }

  private async pickFolder(): Promise<string | null> {
    if (this.backends.modeKind === 'remote') {
      // A folder picked here would name a path on this machine, but projects live on the server.
      throw new Error(
        'The backend is remote: projects are folders on the server. Type the folder path on the server instead.',
      );
    }
    const result = await this.options.adapter.showOpenDialog(this.window, {
      title: 'Open a project folder',
      properties: ['openDirectory', 'createDirectory'],
    });
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }

  /** After the reply has gone out, reload the page so it starts over with the new backend. */
  private reloadSoon(): void {
    setImmediate(() => {
      const window = this.window;
      if (window && !window.isDestroyed() && this.quitting === 'no') window.reload();
    });
  }

  private sidecarFailed(state: SidecarStateLike): void {
    if (this.quitting !== 'no') return;
    const parts = [state.message ?? 'The local backend stopped and could not be restarted.'];
    if (state.stderrTail?.trim()) parts.push(`Its last output:\n${state.stderrTail.trim()}`);
    if (state.diagnosticsFile) parts.push(`Details were written to ${state.diagnosticsFile}`);
    this.options.adapter.log.error(parts.join('\n\n'));
    this.options.adapter.showError("Cairn's local backend failed", parts.join('\n\n'));
  }

  /** Electron quits only after the sidecar has stopped: cancel the first quit, stop, then quit again. */
  private beforeQuit(event: { preventDefault(): void }): void {
    if (this.quitting === 'done') return;
    event.preventDefault();
    if (this.quitting === 'stopping') return;
    this.quitting = 'stopping';
    const { adapter } = this.options;
    const limit = this.options.stopTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        adapter.log.warn(`The local backend did not stop within ${limit} ms; quitting anyway.`);
        resolve();
      }, limit);
    });
    Promise.race([this.backends.stop(), timeout])
      .catch((error: unknown) => adapter.log.error(`Stopping the local backend failed: ${messageOf(error)}`))
      .finally(() => {
        clearTimeout(timer);
        this.quitting = 'done';
        adapter.quit();
      });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
