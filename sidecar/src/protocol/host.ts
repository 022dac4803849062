import * as z from 'zod/mini';

/**
 * Shapes that cross the desktop host's boundaries: the sidecar ↔ Electron main process channel
 * (utilityProcess parentPort, or a Node IPC channel when the host forks plain Node in development),
 * and the preload bridge the renderer sees as `window.cairn`.
 *
 * The host starts the sidecar as `cairn serve --host 127.0.0.1 --port 0 --parent-ipc`, with no token
 * in its environment or arguments: any process of the same user can read those (/proc/<pid>/environ,
 * `ps eww`), and so could every command the agent runs. Instead, once it listens on the channel, the
 * sidecar says `hello`, the host answers `configure` with a fresh token, and only then does the sidecar
 * open its data directory and serve. It binds the port itself and reports it in `ready`, so there is no
 * race for a free port. `shutdown` asks for a graceful stop; the sidecar answers `stopped` and waits
 * for the host to end it (killing its process tree) or to close the channel, then exits 0.
 */

/**
 * The desktop app's own origin (electron/src/app-origin.ts serves the renderer from it; the host's sandboxed
 * preload cannot import this module, so a test holds the two equal): the sidecar's Origin check always
 * allows it.
 */
export const APP_ORIGIN = 'app://cairn';

export const SidecarReady = z.object({
  type: z.literal('ready'),
  port: z.number().check(z.int(), z.gte(1), z.lte(65535)),
  version: z.string(),
  pid: z.number().check(z.int()),
});
export type SidecarReady = z.infer<typeof SidecarReady>;

/**
 * The sidecar finished a graceful stop (turns cancelled, database closed, data directory released) and
 * is still alive, so the host can now kill it together with every process it left running: once the
 * sidecar has exited, its orphans can no longer be found by walking the tree from its pid.
 */
export const SidecarStopped = z.object({ type: z.literal('stopped') });

/** The sidecar listens on the channel and waits for `configure`; sent once, before anything else. */
export const SidecarHello = z.object({
  type: z.literal('hello'),
  version: z.string(),
  pid: z.number().check(z.int()),
});
export type SidecarHello = z.infer<typeof SidecarHello>;

/** What the sidecar sends its host. */
export const SidecarMessage = z.discriminatedUnion('type', [SidecarHello, SidecarReady, SidecarStopped]);
export type SidecarMessage = z.infer<typeof SidecarMessage>;

/**
 * The server token the host hands over: URL-safe characters, as `randomBytes(32).toString('base64url')`
 * makes them (43); at least 32, the length Cairn asks of any token used beyond loopback.
 */
export const HOST_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,512}$/;

/** The host's answer to `hello`: the token the sidecar's API is to require. */
export const HostConfigure = z.object({
  type: z.literal('configure'),
  token: z.string().check(z.regex(HOST_TOKEN_PATTERN)),
});
export type HostConfigure = z.infer<typeof HostConfigure>;

/** What the host sends the sidecar. */
export const HostMessage = z.discriminatedUnion('type', [
  HostConfigure,
  z.object({ type: z.literal('shutdown') }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Where the backend the renderer talks to comes from. */
export const BackendSource = z.enum(['local', 'settings', 'environment']);
export type BackendSource = z.infer<typeof BackendSource>;

/** The backend the renderer should use, as the preload bridge reports it. */
export const BackendInfo = z.object({
  url: z.string(),
  token: z.string(),
  mode: z.enum(['local', 'remote']),
  source: BackendSource,
});
export type BackendInfo = z.infer<typeof BackendInfo>;

/** A remote backend the user enters in the desktop app's settings. */
export const RemoteBackendInput = z.object({
  url: z.string().check(z.minLength(1), z.maxLength(2048)),
  token: z.string().check(z.minLength(1), z.maxLength(4096)),
});
export type RemoteBackendInput = z.infer<typeof RemoteBackendInput>;

/**
 * What the Electron preload exposes to the renderer as `window.cairn` (nothing else of Node is reachable;
 * in a plain browser it is absent). Each method is one invoke on one known channel, and the host validates
 * every payload again.
 */
export interface DesktopBridge {
  /** The backend to use; after a sidecar crash it waits for the restarted one, and rejects if the host gave up. */
  getBackend(): Promise<BackendInfo>;
  /** Validated and stored by the host (token in the OS keychain); the window reloads. Rejects with the reason. */
  setRemoteBackend(input: RemoteBackendInput): Promise<void>;
  /** Back to the sidecar on this computer; the window reloads. */
  clearRemoteBackend(): Promise<void>;
  pickFolder(): Promise<string | null>;
  openExternal(url: string): Promise<void>;
  /** Opens an MCP server's login (OAuth authorization) page in the system browser: https, or http to this computer only. */
  openLoginUrl(url: string): Promise<void>;
  appVersion(): Promise<string>;
}

/** An external link the renderer asks the host to open in the system browser. */
export const ExternalUrl = z.string().check(z.minLength(1), z.maxLength(8192));
