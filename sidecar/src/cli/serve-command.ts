import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/data-dir';
import { envInt } from '../config/env-flags';
import { isLoopbackHost } from '../config/loopback';
import { VERSION } from '../config/version';
import { SidecarMessage } from '../protocol/host';
import { type Handshake, openParentChannel, type ParentChannel } from './parent-channel';
import {
  MIN_REMOTE_TOKEN_LENGTH,
  parseAllowedHosts,
  parseAllowedOrigins,
  parsePublicUrl,
} from './serve-options';
import { EXIT, parseIntFlag, UsageError } from './usage';

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];

/**
 * How long an Electron utility process may linger after a graceful stop: its parentPort may keep the
 * event loop alive, and the host is waiting for the exit. Unref'd, so it never delays a clean exit.
 */
const PARENT_PORT_EXIT_GRACE_MS = 2000;
/** How long a stopped sidecar waits for its host to end it before exiting by itself. */
const HOST_KILL_WAIT_MS = 5000;
/**
 * How long a sidecar started with --parent-ipc waits for its host's token after saying hello: the host
 * answers at once, so only a broken host takes this long, and it must not leave the sidecar hanging.
 * CAIRN_PARENT_IPC_TIMEOUT_MS overrides it (for tests).
 */
const HOST_TOKEN_WAIT_MS = 10_000;

/** A certificate chain and its key, read and checked. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

/** What `cairn serve` starts: the HTTP server (server/start-server.ts), handed in by the program's entry. */
export interface HttpFrontDoor {
  /** Reads and checks `--tls-cert`/`--tls-key`; throws naming the file and what to do. */
  loadTls(certFile: string, keyFile: string): TlsMaterial;
  start(options: {
    dataDir: string;
    host: string;
    port: number;
    allowedHosts: string[];
    allowedOrigins: string[];
    tls: TlsMaterial | null;
    behindTlsProxy: boolean;
    publicUrl?: string | null;
    /** The environment the server reads its settings (and its token) from; default process.env. */
    env?: NodeJS.ProcessEnv;
  }): Promise<{ url: string; browserUrl: string; port: number; stop(): Promise<void> }>;
}

export async function serveCommand(args: string[], http: HttpFrontDoor): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8765' },
      'data-dir': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'behind-tls-proxy': { type: 'boolean', default: false },
      'allowed-hosts': { type: 'string' },
      'allowed-origins': { type: 'string' },
      'public-url': { type: 'string' },
      'parent-ipc': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const host = values.host;
  const port = parseIntFlag('port', values.port) ?? 8765;
  if (port > 65535) throw new UsageError('--port must be between 0 and 65535.');
  const publicUrl = parsePublicUrl(values['public-url']);
  const allowedHosts = parseAllowedHosts(values['allowed-hosts']);
  // Browsers come back from MCP logins to the public address: its name is one this server answers to.
  const publicHost = publicUrl === null ? null : new URL(publicUrl).hostname.toLowerCase();
  if (publicHost && !isLoopbackHost(publicHost) && !allowedHosts.includes(publicHost))
    allowedHosts.push(publicHost);
  const allowedOrigins = parseAllowedOrigins(values['allowed-origins']);
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  const behindTlsProxy = values['behind-tls-proxy'];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new UsageError('--tls-cert FILE and --tls-key FILE go together: give both, or neither.');
  }
  const servesTls = certFile !== undefined;
  if (servesTls && behindTlsProxy) {
    throw new UsageError(
      'Give either --tls-cert/--tls-key (Cairn serves HTTPS) or --behind-tls-proxy (a proxy does), not both.',
    );
  }
  const remote = !isLoopbackHost(host) || servesTls || behindTlsProxy;
  if (!isLoopbackHost(host) && !servesTls && !behindTlsProxy) {
    throw new UsageError(
      `Binding ${host} would expose Cairn beyond this machine, and its token must not travel in the clear. ` +
        'Either serve HTTPS with --tls-cert FILE --tls-key FILE, or put a TLS-terminating proxy in front ' +
        'and add --behind-tls-proxy. To stay on this machine, bind 127.0.0.1.',
    );
  }
  if (behindTlsProxy && allowedHosts.length === 0) {
    throw new UsageError(
      '--behind-tls-proxy needs --allowed-hosts with the name clients use (e.g. cairn.example.com). ' +
        'The proxy must pass that name on in the Host header (nginx: proxy_set_header Host $host) and ' +
        'set X-Forwarded-Proto.',
    );
  }
  const parentIpc = values['parent-ipc'];
  // With --parent-ipc the token comes over the channel, never from the environment (see protocol/host).
  const envToken = parentIpc ? undefined : process.env.CAIRN_TOKEN?.trim();
  if (remote && envToken && envToken.length < MIN_REMOTE_TOKEN_LENGTH) {
    throw new UsageError(
      `For remote use CAIRN_TOKEN must be at least ${MIN_REMOTE_TOKEN_LENGTH} characters (e.g. from ` +
        '`openssl rand -base64 32`), or unset it to use the generated token in the data directory.',
    );
  }
  if (parentIpc && process.env.CAIRN_TOKEN) {
    process.stderr.write(
      'cairn: CAIRN_TOKEN in the environment is not used with --parent-ipc: the host hands the token over its channel.\n',
    );
  }
  // Before the server takes the data directory: a wrong flag or file leaves nothing behind.
  const parent = parentIpc ? openParentChannel() : null;
  const tls = servesTls ? http.loadTls(certFile, keyFile!) : null;
  let hostToken: string | null = null;
  if (parent) {
    let handshake: Handshake;
    try {
      handshake = await parent.handshake(envInt(process.env.CAIRN_PARENT_IPC_TIMEOUT_MS, HOST_TOKEN_WAIT_MS));
    } catch (error) {
      letGoOfHost(parent, EXIT.failed);
      throw error;
    }
    if (handshake.kind === 'shutdown') {
      process.stderr.write(
        'cairn: the host asked to shut down before handing over the token; nothing was served.\n',
      );
      return stoppedForHost(parent, EXIT.ok);
    }
    hostToken = handshake.token;
  }
  if (allowedHosts.length === 0 && /^(0\.0\.0\.0|::|\[::\])$/.test(host)) {
    process.stderr.write(
      `cairn: no --allowed-hosts: requests are answered only when addressed to a loopback name. ` +
        'Add the name clients use, e.g. --allowed-hosts cairn.example.com.\n',
    );
  }

  let running: Awaited<ReturnType<HttpFrontDoor['start']>>;
  try {
    running = await http.start({
      dataDir: resolveDataDir(values['data-dir']),
      host,
      port,
      allowedHosts,
      allowedOrigins,
      tls,
      behindTlsProxy,
      publicUrl,
      // A copy: the token must not enter this process's own environment, which children could inherit.
      ...(hostToken === null ? {} : { env: { ...process.env, CAIRN_TOKEN: hostToken } }),
    });
  } catch (error) {
    if (parent) letGoOfHost(parent, EXIT.failed);
    throw error;
  }

  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (reason: string) => {
      // A second signal (a terminal and a wrapper both sending one) must not cut the shutdown short.
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${reason}: stopping Cairn…\n`);
      running.stop().then(
        () => resolve(EXIT.ok),
        (error: unknown) => {
          process.stderr.write(`cairn: stopping failed: ${String(error)}\n`);
          resolve(EXIT.failed);
        },
      );
    };
    // SIGHUP: the terminal closed; SIGBREAK: Ctrl+Break on Windows, which has no SIGTERM.
    for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
    parent?.onMessage((message) => {
      if (message.type === 'shutdown') stop('the host asked to shut down');
    });
    // The host died: nobody is left to use this server or to stop it.
    parent?.onDisconnect(() => stop('the host went away'));
  });
  // Only now: whoever waits for this line or message may stop us at once, and must find the handlers.
  if (parent) {
    // Nothing on stdout: the host keeps the output for diagnostics, and the line holds the token.
    parent.send(
      SidecarMessage.parse({ type: 'ready', port: running.port, version: VERSION, pid: process.pid }),
    );
  } else {
    const how = behindTlsProxy ? ' (TLS ends at the proxy in front)' : '';
    process.stdout.write(`Cairn ${running.url} is ready${how}. Open in a browser:\n${running.browserUrl}\n`);
  }
  const code = await stopped;
  return parent ? stoppedForHost(parent, code) : code;
}

/**
 * Tells the host the stop is done, and stays alive on purpose: the host kills this process with its
 * whole tree now, which catches what tools left running; a host that just closes the channel (or none
 * at all) lets it exit by itself.
 */
async function stoppedForHost(parent: ParentChannel, code: number): Promise<number> {
  parent.send({ type: 'stopped' });
  await parent.waitForRelease(HOST_KILL_WAIT_MS);
  letGoOfHost(parent, code);
  return code;
}

/** Closes the channel; Electron's parentPort may still keep the process alive, hence the timed exit. */
function letGoOfHost(parent: ParentChannel, code: number): void {
  parent.close();
  if (parent.kind === 'parent-port') setTimeout(() => process.exit(code), PARENT_PORT_EXIT_GRACE_MS).unref();
}
