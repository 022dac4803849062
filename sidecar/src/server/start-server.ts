import { type Application, openApplication } from '../application/composition-root';
import { RENDERER_DIST_DIR } from '../config/app-paths';
import { envInt } from '../config/env-flags';
import { isLoopbackHost } from '../config/loopback';
import type { Keychain } from '../secrets/keychain';
import { buildServer, type CairnServer } from './app';
import { resolveServerToken } from './server-token';
import type { TlsCredentials } from './tls-options';

export interface StartServerOptions {
  dataDir: string;
  host: string;
  port: number;
  env?: NodeJS.ProcessEnv;
  keychain?: Keychain;
  staticDir?: string | null;
  /** Host names (no port) accepted besides loopback ones. */
  allowedHosts?: string[];
  /** Origins (`scheme://host[:port]`) accepted besides the app's and the served page's own. */
  allowedOrigins?: string[];
  /** Serve HTTPS with this certificate and key (see loadTlsCredentials). */
  tls?: TlsCredentials | null;
  /** TLS ends at a proxy in front: the page's origin is https, and the server counts as remote. */
  behindTlsProxy?: boolean;
  /** `--public-url`: the address browsers reach this server at, for MCP logins' redirect URI. */
  publicUrl?: string | null;
}

export interface RunningServer {
  /** Where this server answers: the listening port, with a host name it accepts. */
  url: string;
  /** The URL to open in a browser: the token travels in the fragment, never to a server. */
  browserUrl: string;
  port: number;
  token: string;
  /** 'remote' when started for use from other machines: a non-loopback bind, TLS, or a TLS proxy. */
  mode: 'local' | 'remote';
  /** The application behind the API (tests reach its store and runtime through it). */
  core: Application;
  server: CairnServer;
  stop(): Promise<void>;
}

export const DEFAULT_STATIC_DIR = RENDERER_DIST_DIR;

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const core = openApplication({
    dataDir: options.dataDir,
    command: 'cairn serve',
    env,
    keychain: options.keychain,
  });
  const tls = options.tls ?? null;
  const behindTlsProxy = options.behindTlsProxy ?? false;
  const allowedHosts = [...(options.allowedHosts ?? []), ...boundHostName(options.host)];
  const mode = !isLoopbackHost(options.host) || tls || behindTlsProxy ? 'remote' : 'local';
  try {
    const token = resolveServerToken(options.dataDir, env);
    const server = await buildServer({
      services: core.services,
      logger: core.logger,
      dataDir: options.dataDir,
      mode,
      token,
      allowedHosts,
      allowedOrigins: options.allowedOrigins ?? [],
      wsAuthTimeoutMs: envInt(env.CAIRN_WS_AUTH_TIMEOUT_MS, 5000),
      staticDir: options.staticDir === undefined ? DEFAULT_STATIC_DIR : options.staticDir,
      tls,
      behindTlsProxy,
    });
    await server.app.listen({ host: options.host, port: options.port });
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const url = `${tls ? 'https' : 'http'}://${urlHost(options.host, allowedHosts)}:${port}`;
    // Behind a proxy, browsers come through the proxy's own address (https, its port), not ours.
    const pageUrl = behindTlsProxy && allowedHosts[0] ? `https://${allowedHosts[0]}` : url;
    if (!core.conversationOnly) {
      // MCP logins come back to this server: at its loopback address, or where --public-url says.
      core.services
        .mcpOAuth()
        .setCallbackBase(
          options.publicUrl ?? (mode === 'local' ? url : null),
          'this Cairn server is used from other machines and was started without --public-url: restart it with --public-url set to the address browsers reach it at (e.g. --public-url https://cairn.example.com)',
        );
    }
    core.logger.info('server listening', { url, mode });
    let stopping: Promise<void> | null = null;
    return {
      url,
      browserUrl: `${pageUrl}/#token=${token}`,
      port,
      token,
      mode,
      core,
      server,
      stop() {
        stopping ??= (async () => {
          // Turns end (and say so on the journal) while clients are still connected to hear it.
          await core.stopWork();
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

/**
 * A specific bind address is a name clients use, so it is accepted as Host (a DNS-rebinding page would
 * send its own name, never this one); 0.0.0.0 and :: name no host, and loopback names are always accepted.
 */
function boundHostName(bindHost: string): string[] {
  const bare = bindHost.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopbackHost(bare) || bare === '0.0.0.0' || bare === '::') return [];
  return [bare.includes(':') ? `[${bare}]` : bare];
}

/**
 * A host name for this server's URL that it also accepts as Host: the bind address when it is loopback,
 * else the first allowed name (0.0.0.0 itself is no name), else the loopback address.
 */
function urlHost(bindHost: string, allowedHosts: string[]): string {
  const name = isLoopbackHost(bindHost) ? bindHost : (allowedHosts[0] ?? bindHost);
  const bare = name.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0') return '127.0.0.1';
  if (bare === '::') return '[::1]';
  return bare.includes(':') ? `[${bare}]` : bare;
}
