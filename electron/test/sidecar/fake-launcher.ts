// A SidecarLauncher whose children the test drives by hand: Electron's utilityProcess cannot exist
// under Node, and the supervisor's timing logic is easiest to pin down with fake timers.
import type { SidecarChild, SidecarLauncher, SidecarProcessSpec } from '../../src/sidecar/sidecar-launcher';

export class FakeChild implements SidecarChild {
  readonly posted: unknown[] = [];
  killCount = 0;
  exited = false;
  /** Whether kill() ends the fake process (after a microtask, as a real exit event would). */
  exitOnKill = true;
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly outputListeners: ((chunk: string, stream: 'stdout' | 'stderr') => void)[] = [];
  private readonly exitListeners: ((code: number | null) => void)[] = [];

  constructor(
    readonly spec: SidecarProcessSpec,
    readonly pid: number | undefined,
  ) {}

  private saidHello = false;

  /** The token the host handed this launch over the channel (in answer to hello). */
  get token(): string {
    const configure = this.posted.find(
      (message): message is { type: 'configure'; token: string } =>
        (message as { type?: unknown }).type === 'configure',
    );
    if (!configure) throw new Error('the host sent this launch no configure message');
    return configure.token;
  }

  onMessage(listener: (message: unknown) => void): void {
    this.messageListeners.push(listener);
  }
  onOutput(listener: (chunk: string, stream: 'stdout' | 'stderr') => void): void {
    this.outputListeners.push(listener);
  }
  onExit(listener: (code: number | null) => void): void {
    this.exitListeners.push(listener);
  }
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill(): void {
    this.killCount += 1;
    if (this.exitOnKill) queueMicrotask(() => this.exit(null));
  }

  // What the "sidecar" does:
  send(message: unknown): void {
    for (const listener of this.messageListeners) listener(message);
  }
  /** Asks for the token, as the real sidecar does once it listens on the channel. */
  hello(): void {
    this.saidHello = true;
    this.send({ type: 'hello', version: '0.1.0', pid: this.pid ?? 0 });
  }
  /** Says hello first unless it already did, then reports ready on `port`. */
  ready(port: number): void {
    if (!this.saidHello) this.hello();
    this.send({ type: 'ready', port, version: '0.1.0', pid: this.pid ?? 0 });
  }
  print(chunk: string, stream: 'stdout' | 'stderr' = 'stderr'): void {
    for (const listener of this.outputListeners) listener(chunk, stream);
  }
  exit(code: number | null): void {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.exitListeners) listener(code);
  }
}

export class FakeLauncher implements SidecarLauncher {
  readonly launches: FakeChild[] = [];
  /** Makes the next launch() throw, as a launcher whose binary is missing would. */
  failNext: Error | null = null;
  private readonly watchers: (() => void)[] = [];

  launch(spec: SidecarProcessSpec): FakeChild {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
    const child = new FakeChild(spec, 4100 + this.launches.length);
    this.launches.push(child);
    for (const watcher of this.watchers.splice(0)) watcher();
    return child;
  }

  /** The n-th launch (1-based), once it has happened. */
  async launched(n: number): Promise<FakeChild> {
    while (this.launches.length < n) await new Promise<void>((resolve) => this.watchers.push(resolve));
    return this.launches[n - 1]!;
  }
}
