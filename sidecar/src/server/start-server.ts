import { openSidecarCore, type SidecarCore } from '../agent/sidecar-core';
import { RENDERER_DIST_DIR } from '../config/app-paths';
import { envInt } from '../config/env-flags';
import { VERSION } from '../config/version';
import type { Keychain } from '../secrets/keychain';
import { buildServer, type CairnServer } from './app';
import { resolveServerToken } from './server-token';

export interface StartServerOptions {
  dataDir: string;
  host: string;
  port: number;
  env?: NodeJS.ProcessEnv;
  keychain?: Keychain;
  staticDir?: string | null;
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

export interface RunningServer {
  url: string;
  /** The URL to open in a browser: the token travels in the fragment, never to a server. */
  browserUrl: string;
  port: number;
  token: string;
  core: SidecarCore;
  server: CairnServer;
  stop(): Promise<void>;
}

export const DEFAULT_STATIC_DIR = RENDERER_DIST_DIR;

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const core = openSidecarCore({
    dataDir: options.dataDir,
    command: 'cairn serve',
    env,
    keychain: options.keychain,
  });
  try {
    const token = resolveServerToken(options.dataDir, env);
    const server = await buildServer({
      store: core.store,
      runtime: core.runtime,
      keychain: core.keychain,
      logger: core.logger,
      version: VERSION,
      dataDir: options.dataDir,
      conversationOnly: core.conversationOnly,
      mode: 'local',
      env,
      token,
      allowedHosts: options.allowedHosts ?? [],
      allowedOrigins: options.allowedOrigins ?? [],
      wsAuthTimeoutMs: envInt(env.CAIRN_WS_AUTH_TIMEOUT_MS, 5000),
      staticDir: options.staticDir === undefined ? DEFAULT_STATIC_DIR : options.staticDir,
      https: false,
    });
    await server.app.listen({ host: options.host, port: options.port });
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
    const url = `http://${hostForUrl}:${port}`;
    core.logger.info('server listening', { url });
    let stopping: Promise<void> | null = null;
    return {
      url,
      browserUrl: `${url}/#token=${token}`,
      port,
      token,
      core,
      server,
      stop() {
        stopping ??= (async () => {
          await core.runtime.shutdown();
          await server.app.close();
          await core.close();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await core.close();
    throw error;
  }
}
