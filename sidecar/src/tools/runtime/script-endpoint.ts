import fs from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SCRIPT_MESSAGE_LIMIT } from '../../protocol';

/** A request as the endpoint hands it on: which operation, the bearer token, the parsed body. */
export interface ScriptMessage {
  op: string;
  token: string | null;
  body: unknown;
  /** Aborted when the client goes away before its answer (the script was killed). */
  signal: AbortSignal;
}

export interface ScriptAnswer {
  status: number;
  body: unknown;
}

export type ScriptHandler = (message: ScriptMessage) => Promise<ScriptAnswer>;

export interface ScriptEndpointOptions {
  /** Whether a token may be let in at all; asked before any of the body is read. */
  admits: (token: string | null) => boolean;
  /** How long a client may take to send its request body (the answer may take as long as its tool). */
  bodyTimeoutMs?: number;
}

const ROUTE = /^\/v1\/([a-z_]+)$/;
const BODY_TIMEOUT_MS = 30_000;

/**
 * The byte channel of the script RPC: HTTP/1.1 with JSON bodies on a loopback listener of its own (never
 * the API's address, even when the API serves remote clients), and on POSIX also a Unix socket in a private
 * folder, which a sandbox without network can still reach. Messages over 8 MiB are refused either way.
 * What a message means is the handler's business (script-rpc.ts).
 */
export class ScriptEndpoint {
  private readonly servers: Server[] = [];
  private tcpAddress: string | null = null;
  private unixAddress: string | null = null;
  private socketDir: string | null = null;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly handler: ScriptHandler,
    private readonly options: ScriptEndpointOptions,
  ) {}

  /** Starts listening (once); resolves when both listeners are ready. */
  start(): Promise<void> {
    this.starting ??= this.listen();
    return this.starting;
  }

  /** `http://127.0.0.1:PORT`, the address children are given. */
  async endpoint(): Promise<string> {
    await this.start();
    return this.tcpAddress!;
  }

  /** `unix:PATH`, or null where there is none (Windows). */
  async unixEndpoint(): Promise<string | null> {
    await this.start();
    return this.unixAddress;
  }

  async close(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    this.servers.length = 0;
    if (this.socketDir) fs.rmSync(this.socketDir, { recursive: true, force: true });
  }

  private async listen(): Promise<void> {
    const tcp = this.server();
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(0, '127.0.0.1', () => resolve());
    });
    this.tcpAddress = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
    if (process.platform === 'win32') return;
    // A folder only this user can enter: the socket's own mode is not honoured everywhere.
    this.socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-tools-'));
    fs.chmodSync(this.socketDir, 0o700);
    const socketPath = path.join(this.socketDir, 'tools.sock');
    const unix = this.server();
    await new Promise<void>((resolve, reject) => {
      unix.once('error', reject);
      unix.listen(socketPath, () => resolve());
    });
    this.unixAddress = `unix:${socketPath}`;
  }

  private server(): Server {
    const server = createServer((req, res) => {
      // A client that goes away mid-request is its own business, never a crash of Cairn.
      this.serve(req, res).catch(() => {
        if (!res.headersSent) send(res, 500, error('internal', 'The request could not be read.'), true);
        else res.destroy();
      });
    });
    // A waited call may take as long as its tool does.
    server.requestTimeout = 0;
    server.keepAliveTimeout = 5_000;
    this.servers.push(server);
    return server;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = ROUTE.exec(req.url ?? '');
    if (req.method !== 'POST' || !route) {
      req.resume();
      return send(
        res,
        404,
        error('not_found', 'Unknown request: POST /v1/call, status, cancel or output.'),
        true,
      );
    }
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : null;
    // Nothing is read for a token that cannot be let in: no memory held for strangers.
    if (!this.options.admits(token)) {
      req.resume();
      const message = token
        ? 'This token is not valid now: the call that ran the script has ended or was cancelled.'
        : 'No token: send CAIRN_TOOL_TOKEN as "Authorization: Bearer …".';
      return send(res, 401, error('unauthorized', message), true);
    }
    const read = await readBody(req, this.options.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
    if (read === 'too_large') return refuseTooLarge(res);
    if (read === 'incomplete') {
      return send(
        res,
        400,
        error('bad_request', 'The request body did not arrive in time, or was cut off.'),
        true,
      );
    }
    let body: unknown = {};
    if (read.trim() !== '') {
      try {
        body = JSON.parse(read);
      } catch {
        return send(res, 400, error('bad_request', 'The request body is not valid JSON.'));
      }
    }
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    let answer: ScriptAnswer;
    try {
      answer = await this.handler({ op: route[1]!, token, body, signal: gone.signal });
    } catch (err) {
      answer = { status: 500, body: error('internal', err instanceof Error ? err.message : String(err)) };
    }
    if (!gone.signal.aborted) send(res, answer.status, answer.body);
  }
}

function error(code: string, message: string) {
  return { error: { code, message } };
}

/**
 * The body as text; `too_large` once it passes the limit (the rest is read and dropped, not kept, so the
 * refusal still reaches the client); `incomplete` when the client goes away or takes too long to send it.
 */
function readBody(req: IncomingMessage, timeoutMs: number): Promise<string | 'too_large' | 'incomplete'> {
  return new Promise((resolve) => {
    if (Number(req.headers['content-length'] ?? 0) > SCRIPT_MESSAGE_LIMIT) {
      req.resume();
      resolve('too_large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    // The answer (400, connection: close) ends the connection once it is sent.
    const timer = setTimeout(() => resolve('incomplete'), timeoutMs);
    const settle = (value: string | 'too_large' | 'incomplete') => {
      clearTimeout(timer);
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) return;
      if (size <= SCRIPT_MESSAGE_LIMIT) {
        chunks.push(chunk);
        return;
      }
      over = true;
      chunks.length = 0;
      settle('too_large');
    });
    req.on('end', () => {
      if (!over) settle(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => settle('incomplete'));
    req.on('aborted', () => settle('incomplete'));
  });
}

function refuseTooLarge(res: ServerResponse): void {
  const mib = SCRIPT_MESSAGE_LIMIT / (1024 * 1024);
  send(res, 413, error('bad_request', `The request is larger than ${mib} MiB and was refused.`), true);
}

function send(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}
