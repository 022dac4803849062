// The seam between the supervisor and whatever actually runs the sidecar: Electron's utilityProcess
// in the app, a forked Node in development and tests, a hand-driven fake in unit tests.

export interface SidecarProcessSpec {
  /** The JavaScript file to run (dist/sidecar/cairn.mjs in the app, sidecar/bin/cairn.mjs from source). */
  entry: string;
  args: string[];
  /** The child's whole environment; nothing is inherited beyond it. */
  env: Record<string, string>;
  /** Node flags for the child (not inherited from the host). */
  execArgv: string[];
  cwd?: string;
}

export interface SidecarChild {
  /** Undefined until the OS process exists (utilityProcess learns its pid asynchronously). */
  readonly pid: number | undefined;
  onMessage(listener: (message: unknown) => void): void;
  onOutput(listener: (chunk: string, stream: 'stdout' | 'stderr') => void): void;
  /** Called once, when the process has ended; null when a signal ended it. */
  onExit(listener: (code: number | null) => void): void;
  /** Sends over the IPC channel; silently dropped once the channel is gone. */
  postMessage(message: unknown): void;
  /** Hard kill of the direct child. */
  kill(): void;
}

export interface SidecarLauncher {
  launch(spec: SidecarProcessSpec): SidecarChild;
}
