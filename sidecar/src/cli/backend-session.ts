import { randomBytes } from 'node:crypto';
import { type Backend, CairnClient } from '../client';
import { resolveDataDir } from '../config/data-dir';
import { CairnError } from '../errors';
import type { HttpFrontDoor } from './serve-command';
import { cairnServerUrl } from './server-url';
import { UsageError } from './usage';

/** The flags every command that talks to Cairn takes: a running server, or the local data directory. */
export const BACKEND_FLAGS = {
  server: { type: 'string' },
  'data-dir': { type: 'string' },
} as const;

export interface BackendOptions {
  /** --server URL: a running `cairn serve` (its token in CAIRN_TOKEN). */
  server?: string;
  /** --data-dir DIR: the local data directory (without --server). */
  'data-dir'?: string;
}

export interface OpenBackend {
  client: CairnClient;
  backend: Backend;
  /** Whether this is the command's own server on the local data directory (not a --server). */
  local: boolean;
}

/**
 * Runs `work` against Cairn through the public client: the server --server names, or else one started
 * in this process on the local data directory (loopback, a random port, a fresh token, stopped after),
 * so every command has one code path whichever it is.
 */
export async function withBackend<T>(
  options: BackendOptions,
  http: HttpFrontDoor,
  work: (open: OpenBackend) => Promise<T>,
): Promise<T> {
  if (options.server !== undefined) {
    if (options['data-dir'] !== undefined) {
      throw new UsageError(
        'Give --server URL or --data-dir DIR, not both: a server uses its own data directory.',
      );
    }
    const backend = { url: cairnServerUrl(options.server), token: serverToken() };
    return work({ client: new CairnClient(backend), backend, local: false });
  }
  const token = randomBytes(32).toString('base64url');
  let running: Awaited<ReturnType<HttpFrontDoor['start']>>;
  try {
    running = await http.start({
      dataDir: resolveDataDir(options['data-dir']),
      host: '127.0.0.1',
      port: 0,
      allowedHosts: [],
      allowedOrigins: [],
      tls: null,
      behindTlsProxy: false,
      // A copy: the token must not enter this process's environment, which tools' processes inherit.
      env: { ...process.env, CAIRN_TOKEN: token },
    });
  } catch (error) {
    if (error instanceof CairnError && error.code === 'data_dir_locked') {
      throw new CairnError(
        'data_dir_locked',
        `${error.message}\nIf that is a running \`cairn serve\`, use it instead: add --server http://127.0.0.1:PORT (with CAIRN_TOKEN set).`,
      );
    }
    throw error;
  }
  try {
    const backend = { url: running.url, token };
    return await work({ client: new CairnClient(backend), backend, local: true });
  } finally {
    await running.stop();
  }
}

function serverToken(): string {
  const token = process.env.CAIRN_TOKEN?.trim();
  if (!token) {
    throw new UsageError(
      '--server needs the server token in CAIRN_TOKEN (the token `cairn serve` printed, or its data directory\'s "token" file).',
    );
  }
  return token;
}
