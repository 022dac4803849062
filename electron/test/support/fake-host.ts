// A stand-in for Electron (which cannot run here) behind the HostAdapter seam, recording what the
// host asks of it. Everything else the host uses in these tests is real.
import type { BrowserWindowConstructorOptions, OpenDialogOptions } from 'electron';
import type { SidecarStateLike, SidecarSupervisorLike } from '../../src/backend-controller';
import type { GuardEvent, HostAdapter, HostLog, HostWindow } from '../../src/host-adapter';
import type { FrameLike, IpcSenderLike } from '../../src/ipc-policy';
import type { Keychain } from '../../src/keychain';

type Listener<T = void> = (arg: T) => void;

export class FakeWindow implements HostWindow {
  mainFrame: FrameLike | null = { url: 'app://cairn/', parent: null, processId: 7, routingId: 1 };
  loaded: string[] = [];
  reloads = 0;
  shown = 0;
  focused = 0;
  destroyed = false;
  permission: ((permission: string, url: string | undefined) => boolean) | null = null;
  windowOpen: ((url: string) => { action: 'deny' }) | null = null;
  readonly listeners = {
    readyToShow: [] as Listener[],
    closed: [] as Listener[],
    navigate: [] as Listener<GuardEvent>[],
    frameNavigate: [] as Listener<GuardEvent>[],
    redirect: [] as Listener<GuardEvent>[],
    webview: [] as Listener<{ preventDefault(): void }>[],
  };

  constructor(readonly options: BrowserWindowConstructorOptions) {}

  async loadURL(url: string) {
    this.loaded.push(url);
  }
  reload() {
    this.reloads += 1;
  }
  show() {
    this.shown += 1;
  }
  focus() {
    this.focused += 1;
  }
  isDestroyed() {
    return this.destroyed;
  }
  onReadyToShow(l: Listener) {
    this.listeners.readyToShow.push(l);
  }
  onClosed(l: Listener) {
    this.listeners.closed.push(l);
  }
  onWillNavigate(l: Listener<GuardEvent>) {
    this.listeners.navigate.push(l);
  }
  onWillFrameNavigate(l: Listener<GuardEvent>) {
    this.listeners.frameNavigate.push(l);
  }
  onWillRedirect(l: Listener<GuardEvent>) {
    this.listeners.redirect.push(l);
  }
  onWillAttachWebview(l: Listener<{ preventDefault(): void }>) {
    this.listeners.webview.push(l);
  }
  setWindowOpenHandler(handler: (url: string) => { action: 'deny' }) {
    this.windowOpen = handler;
  }
  setPermissionHandler(allowed: (permission: string, url: string | undefined) => boolean) {
    this.permission = allowed;
  }

  /** Emits a guard event; returns whether the host cancelled it. */
  emit(kind: 'navigate' | 'frameNavigate' | 'redirect', url: string, isMainFrame = true): boolean {
    let prevented = false;
    for (const l of this.listeners[kind]) l({ url, isMainFrame, preventDefault: () => (prevented = true) });
    return prevented;
  }

  close() {
    this.destroyed = true;
    for (const l of this.listeners.closed) l();
  }
}

/** A keychain kept in memory; the real one is tested in remote-backend-store.test.ts. */
export class MemoryKeychain implements Keychain {
  readonly entries = new Map<string, string>();
  async get(account: string) {
    return this.entries.get(account) ?? null;
  }
  async set(account: string, secret: string) {
    this.entries.set(account, secret);
  }
  async delete(account: string) {
    return this.entries.delete(account);
  }
}

export class FakeAdapter implements HostAdapter {
  platform: NodeJS.Platform = 'linux';
  isPackaged = true;
  appVersion = '1.2.3';
  versions = { node: '22.20.0', electron: '41.7.1' };
  keychain = new MemoryKeychain();
  lockGranted = true;
  quits = 0;
  errors: { title: string; content: string }[] = [];
  opened: string[] = [];
  windows: FakeWindow[] = [];
  protocols = new Map<string, (request: Request) => Promise<Response>>();
  ipc = new Map<string, (event: IpcSenderLike, ...args: unknown[]) => Promise<unknown>>();
  dialogAnswer = { canceled: false, filePaths: ['/home/u/project'] };
  dialogCalls: { window: HostWindow | null; options: OpenDialogOptions }[] = [];
  logs: string[] = [];
  readonly log: HostLog = {
    info: (m) => this.logs.push(`info ${m}`),
    warn: (m) => this.logs.push(`warn ${m}`),
    error: (m) => this.logs.push(`error ${m}`),
  };
  private readonly app = {
    secondInstance: [] as Listener[],
    beforeQuit: [] as Listener<{ preventDefault(): void }>[],
    allClosed: [] as Listener[],
    activate: [] as Listener[],
  };

  constructor(
    readonly userDataDir: string,
    readonly appPath: string,
  ) {}

  requestSingleInstanceLock() {
    return this.lockGranted;
  }
  async whenReady() {}
  quit() {
    this.quits += 1;
  }
  onSecondInstance(l: Listener) {
    this.app.secondInstance.push(l);
  }
  onBeforeQuit(l: Listener<{ preventDefault(): void }>) {
    this.app.beforeQuit.push(l);
  }
  onWindowAllClosed(l: Listener) {
    this.app.allClosed.push(l);
  }
  onActivate(l: Listener) {
    this.app.activate.push(l);
  }
  handleProtocol(scheme: string, handler: (request: Request) => Promise<Response>) {
    this.protocols.set(scheme, handler);
  }
  handleIpc(channel: string, handler: (event: IpcSenderLike, ...args: unknown[]) => Promise<unknown>) {
    this.ipc.set(channel, handler);
  }
  createWindow(options: BrowserWindowConstructorOptions) {
    const window = new FakeWindow(options);
    this.windows.push(window);
    return window;
  }
  async showOpenDialog(window: HostWindow | null, options: OpenDialogOptions) {
    this.dialogCalls.push({ window, options });
    return this.dialogAnswer;
  }
  showError(title: string, content: string) {
    this.errors.push({ title, content });
  }
  async openExternal(url: string) {
    this.opened.push(url);
  }

  get window(): FakeWindow {
    const window = this.windows.at(-1);
    if (!window) throw new Error('no window was created');
    return window;
  }

  /** Invokes a channel the way the window's own page would (or from `frame`). */
  invoke(
    channel: string,
    args: unknown[] = [],
    frame: FrameLike | null = this.window.mainFrame,
  ): Promise<unknown> {
    const handler = this.ipc.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ senderFrame: frame }, ...args);
  }

  allWindowsClosed() {
    for (const l of this.app.allClosed) l();
  }

  activate() {
    for (const l of this.app.activate) l();
  }

  secondInstance() {
    for (const l of this.app.secondInstance) l();
  }

  /** Fires before-quit; returns whether the host cancelled it. */
  beforeQuit(): boolean {
    let prevented = false;
    for (const l of this.app.beforeQuit) l({ preventDefault: () => (prevented = true) });
    return prevented;
  }
}

/**
 * A supervisor whose life the test drives. The real SidecarSupervisor has its own tests
 * (test/sidecar/); here only the host's decisions around it matter.
 */
export class FakeSupervisor implements SidecarSupervisorLike {
  started = 0;
  stopCalls = 0;
  stopped = false;
  private listeners: ((state: SidecarStateLike) => void)[] = [];
  private ready: { url: string; token: string } | null = null;
  private readyWaiters: ((b: { url: string; token: string }) => void)[] = [];
  private releaseStop: (() => void) | null = null;
  /** When set, stop() waits until release() is called. */
  holdStop = false;

  start() {
    this.started += 1;
  }
  backend() {
    if (this.ready) return Promise.resolve(this.ready);
    return new Promise<{ url: string; token: string }>((resolve) => this.readyWaiters.push(resolve));
  }
  onStateChange(listener: (state: SidecarStateLike) => void) {
    this.listeners.push(listener);
    return () => undefined;
  }
  stop() {
    this.stopCalls += 1;
    if (!this.holdStop) {
      this.stopped = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.releaseStop = () => {
        this.stopped = true;
        resolve();
      };
    });
  }
  release() {
    this.releaseStop?.();
  }
  becomeReady(url: string, token: string) {
    this.ready = { url, token };
    for (const w of this.readyWaiters.splice(0)) w(this.ready);
    this.emit({ kind: 'ready' });
  }
  emit(state: SidecarStateLike) {
    for (const l of this.listeners) l(state);
  }
}
