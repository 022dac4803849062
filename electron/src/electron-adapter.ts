// The real HostAdapter over the electron module. Electron cannot run here, so this file is only
// type-checked: each member forwards to one Electron call and decides nothing.
import {
  app,
  BrowserWindow,
  type BrowserWindowConstructorOptions,
  dialog,
  ipcMain,
  type OpenDialogOptions,
  protocol,
  shell,
} from 'electron';
import type { GuardEvent, HostAdapter, HostLog, HostWindow } from './host-adapter';
import { type KeytarLike, keytarKeychain } from './keychain';

class ElectronWindow implements HostWindow {
  constructor(readonly browserWindow: BrowserWindow) {}

  private get contents() {
    return this.browserWindow.webContents;
  }

  get mainFrame() {
    return this.contents.isDestroyed() ? null : this.contents.mainFrame;
  }

  loadURL(url: string): Promise<void> {
    return this.browserWindow.loadURL(url);
  }

  reload(): void {
    this.contents.reload();
  }

  show(): void {
    this.browserWindow.show();
  }

  focus(): void {
    if (this.browserWindow.isMinimized()) this.browserWindow.restore();
    this.browserWindow.show();
    this.browserWindow.focus();
  }

  isDestroyed(): boolean {
    return this.browserWindow.isDestroyed();
  }

  onReadyToShow(listener: () => void): void {
    this.browserWindow.once('ready-to-show', listener);
  }

  onClosed(listener: () => void): void {
    this.browserWindow.on('closed', listener);
  }

  onWillNavigate(listener: (event: GuardEvent) => void): void {
    this.contents.on('will-navigate', (details) => listener(guardEvent(details)));
  }

  onWillFrameNavigate(listener: (event: GuardEvent) => void): void {
    this.contents.on('will-frame-navigate', (details) => listener(guardEvent(details)));
  }

  onWillRedirect(listener: (event: GuardEvent) => void): void {
    this.contents.on('will-redirect', (details) => listener(guardEvent(details)));
  }

  onWillAttachWebview(listener: (event: { preventDefault(): void }) => void): void {
    this.contents.on('will-attach-webview', (event) => listener(event));
  }

  setWindowOpenHandler(handler: (url: string) => { action: 'deny' }): void {
    this.contents.setWindowOpenHandler((details) => handler(details.url));
  }

  setPermissionHandler(allowed: (permission: string, requestingUrl: string | undefined) => boolean): void {
    const session = this.contents.session;
    session.setPermissionRequestHandler((_contents, permission, callback, details) =>
      callback(allowed(permission, details.requestingUrl)),
    );
    session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
      allowed(permission, details.requestingUrl ?? requestingOrigin),
    );
  }
}

function guardEvent(details: { url: string; isMainFrame: boolean; preventDefault(): void }): GuardEvent {
  return {
    url: details.url,
    isMainFrame: details.isMainFrame,
    preventDefault: () => details.preventDefault(),
  };
}

const consoleLog: HostLog = {
  info: (message) => console.info(`[cairn] ${message}`),
  warn: (message) => console.warn(`[cairn] ${message}`),
  error: (message) => console.error(`[cairn] ${message}`),
};

/** keytar is native and optional; required at first use, and left out of the bundle (external). */
function loadKeytar(): KeytarLike {
  const mod = require('keytar') as KeytarLike & { default?: KeytarLike };
  return typeof mod.getPassword === 'function' ? mod : (mod.default ?? mod);
}

export function electronHostAdapter(): HostAdapter {
  return {
    platform: process.platform,
    isPackaged: app.isPackaged,
    appVersion: app.getVersion(),
    versions: { ...process.versions },
    userDataDir: app.getPath('userData'),
    appPath: app.getAppPath(),
    keychain: keytarKeychain(loadKeytar, 'cairn'),
    log: consoleLog,

    requestSingleInstanceLock: () => app.requestSingleInstanceLock(),
    whenReady: () => app.whenReady(),
    quit: () => app.quit(),
    onSecondInstance: (listener) => {
      app.on('second-instance', () => listener());
    },
    onBeforeQuit: (listener) => {
      app.on('before-quit', (event) => listener(event));
    },
    onWindowAllClosed: (listener) => {
      app.on('window-all-closed', () => listener());
    },
    onActivate: (listener) => {
      app.on('activate', () => listener());
    },

    handleProtocol: (scheme, handler) => protocol.handle(scheme, handler),
    handleIpc: (channel, handler) =>
      ipcMain.handle(channel, (event, ...args: unknown[]) => handler(event, ...args)),

    createWindow: (options: BrowserWindowConstructorOptions) =>
      new ElectronWindow(new BrowserWindow(options)),
    showOpenDialog: (window: HostWindow | null, options: OpenDialogOptions) =>
      window instanceof ElectronWindow
        ? dialog.showOpenDialog(window.browserWindow, options)
        : dialog.showOpenDialog(options),
    showError: (title, content) => dialog.showErrorBox(title, content),
    openExternal: (url) => shell.openExternal(url),
  };
}
