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

const ROUTE = /^\/v1\/([a-z_]+)$/;

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

  constructor(private readonly handler: ScriptHandler) {}

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
    const server = createServer((req, res) => void this.serve(req, res));
    // A waited call may take as long as its tool does.
    server.requestTimeout = 0;
    server.keepAliveTimeout = 5_000;
    this.servers.push(server);
    return server;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = ROUTE.exec(req.url ?? '');
    if (req.method !== 'POST' || !route) {
      return send(res, 404, error('not_found', 'Unknown request: POST /v1/call, status, cancel or output.'));
    }
    const text = await readBody(req);
    if (text === null) return refuseTooLarge(res);
    let body: unknown = {};
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, error('bad_request', 'The request body is not valid JSON.'));
      }
    }
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : null;
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
 * The body as text, or null once it passes the limit: the rest is read and dropped (not kept), so the
 * refusal still reaches the client.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > SCRIPT_MESSAGE_LIMIT) {
      req.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) return;
      if (size <= SCRIPT_MESSAGE_LIMIT) {
        chunks.push(chunk);
        return;
      }
      over = true;
      chunks.length = 0;
      resolve(null);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
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
