import type { BrowserWindowConstructorOptions, OpenDialogOptions } from 'electron';
import type { FrameLike, IpcSenderLike } from './ipc-policy';
import type { Keychain } from './keychain';

/**
 * The slice of Electron the host's logic uses, so that logic runs under Node in tests with a fake.
 * electron-adapter.ts implements it over the real module; it forwards and decides nothing.
 */
export interface HostAdapter {
  readonly platform: NodeJS.Platform;
  readonly isPackaged: boolean;
  readonly appVersion: string;
  /** process.versions: electron, chrome, node… for diagnostics. */
  readonly versions: Readonly<Record<string, string | undefined>>;
  /** Electron's userData folder (settings, logs). */
  readonly userDataDir: string;
  /** The folder with package.json: the repository in development, the asar archive when packaged. */
  readonly appPath: string;
  readonly keychain: Keychain;
  readonly log: HostLog;

  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  quit(): void;
  onSecondInstance(listener: () => void): void;
  onBeforeQuit(listener: (event: { preventDefault(): void }) => void): void;
  onWindowAllClosed(listener: () => void): void;
  /** macOS: the dock icon was clicked. */
  onActivate(listener: () => void): void;

  handleProtocol(scheme: string, handler: (request: Request) => Promise<Response>): void;
  handleIpc(channel: string, handler: (event: IpcSenderLike, ...args: unknown[]) => Promise<unknown>): void;

  createWindow(options: BrowserWindowConstructorOptions): HostWindow;
  showOpenDialog(
    window: HostWindow | null,
    options: OpenDialogOptions,
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
  /** A modal error (dialog.showErrorBox); works before and after ready. */
  showError(title: string, content: string): void;
  openExternal(url: string): Promise<void>;
}

/** A navigation, frame navigation or redirect the host may cancel. */
export interface GuardEvent {
  readonly url: string;
  readonly isMainFrame: boolean;
  preventDefault(): void;
}

/** The app's window and its webContents, as far as the host needs them. */
export interface HostWindow {
  /** webContents.mainFrame, read at call time (a reload may replace it). */
  readonly mainFrame: FrameLike | null;
  loadURL(url: string): Promise<void>;
  reload(): void;
  show(): void;
  /** Restores a minimized window and brings it to the front. */
  focus(): void;
  isDestroyed(): boolean;
  onReadyToShow(listener: () => void): void;
  onClosed(listener: () => void): void;
  onWillNavigate(listener: (event: GuardEvent) => void): void;
  onWillFrameNavigate(listener: (event: GuardEvent) => void): void;
  onWillRedirect(listener: (event: GuardEvent) => void): void;
  onWillAttachWebview(listener: (event: { preventDefault(): void }) => void): void;
  setWindowOpenHandler(handler: (url: string) => { action: 'deny' }): void;
  /** Both the request and the check handler of the window's session answer with `allowed`. */
  setPermissionHandler(allowed: (permission: string, requestingUrl: string | undefined) => boolean): void;
}

export interface HostLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
