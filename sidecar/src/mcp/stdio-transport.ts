import { type ChildProcess, spawn } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { killProcessTree } from './process-tree';

export interface StdioServerParams {
  program: string;
  args: string[];
  cwd: string | null;
  /** The child's whole environment (nothing of the sidecar's is added). */
  env: Record<string, string>;
  windowsVerbatimArguments?: boolean;
  /** A message (one stdout line) larger than this is dropped; its request fails through `onOversized`. */
  maxMessageBytes: number;
  stderrTailBytes?: number;
}

export interface StdioExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The request id of a line too large to parse whole: looked for at its start and at its end. */
const ID_AT_END = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const EDGE_BYTES = 512;

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The MCP stdio transport: newline-delimited JSON-RPC over a child's stdin/stdout. Unlike the SDK's
 * StdioClientTransport it runs the server in its own process group and stops the whole tree, keeps a stderr
 * tail for error messages, treats anything on stdout that is not JSON-RPC as fatal (the stream is corrupt),
 * and drops over-sized messages without buffering them whole.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** A message over `maxMessageBytes`: its request id when one could be found, and its size. */
  onOversized?: (id: string | number | null, bytes: number) => void;

  private child: ChildProcess | null = null;
  private stderrTail = '';
  private chunks: Buffer[] = [];
  private lineBytes = 0;
  /** While skipping an over-sized line: its first bytes and its latest bytes, to find its id. */
  private skipping: { head: string; tail: string } | null = null;
  private closed = false;
  private stopping: Promise<void> | null = null;
  /** Why the transport closed on its own (exit, garbage, spawn failure); null while open or closed by us. */
  fatal: string | null = null;
  exit: StdioExit | null = null;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The last few KB the server wrote to stderr. */
  get stderr(): string {
    return this.stderrTail;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioTransport already started');
    const p = this.params;
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(p.program, p.args, {
          cwd: p.cwd ?? undefined,
          env: p.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          shell: false,
          // Own process group on POSIX so the whole tree can be signalled; Windows uses taskkill /T instead.
          detached: process.platform !== 'win32',
          windowsHide: true,
          windowsVerbatimArguments: p.windowsVerbatimArguments ?? false,
        });
      } catch (err) {
        reject(new Error(`could not start ${p.program}: ${(err as Error).message}`));
        return;
      }
      this.child = child;
      child.on('error', (err) => {
        const why = `could not start ${p.program}: ${err.message}`;
        if (child.pid === undefined) {
          this.fatal = why;
          this.finish();
          reject(new Error(why));
        } else {
          this.onerror?.(err);
        }
      });
      child.on('spawn', () => resolve());
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        if (!this.closed) {
          this.fatal ??= `the server exited (${signal ? `signal ${signal}` : `code ${code}`})`;
          // Its children may outlive it; they belong to the server, so they go too.
          void killProcessTree(child);
        }
        this.finish();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.on('data', (chunk: Buffer) => {
        const max = p.stderrTailBytes ?? 4_096;
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-max);
      });
      // A write to a closed stdin must not crash the sidecar; the exit handler reports the cause.
      child.stdin?.on('error', (err) => this.onerror?.(err));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.closed || !stdin || stdin.destroyed) {
      return Promise.reject(new Error(this.fatal ?? 'the server is not running'));
    }
    return new Promise<void>((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server and its whole process tree; resolves when they are gone (or given up on). */
  close(): Promise<void> {
    if (this.stopping) return this.stopping;
    const child = this.child;
    this.stopping = (async () => {
      this.closed = true;
      if (child && this.exit === null) child.stdin?.end();
      if (child) await killProcessTree(child);
      this.finish();
    })();
    return this.stopping;
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.closed = true;
    this.chunks = [];
    this.onclose?.();
  }
  private finished = false;

  private onStdout(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length && !this.finished) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl === -1) break;
      this.endLine();
      start = nl + 1;
    }
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.lineBytes += part.length;
    if (this.skipping) {
      this.skipping.tail = (this.skipping.tail + part.toString('latin1')).slice(-EDGE_BYTES);
      return;
    }
    if (this.lineBytes > this.params.maxMessageBytes) {
      const sofar = Buffer.concat([...this.chunks, part]).toString('latin1');
      this.skipping = { head: sofar.slice(0, EDGE_BYTES), tail: sofar.slice(-EDGE_BYTES) };
      this.chunks = [];
      return;
    }
    this.chunks.push(Buffer.from(part));
  }

  private endLine(): void {
    const bytes = this.lineBytes;
    const skipped = this.skipping;
    const chunks = this.chunks;
    this.lineBytes = 0;
    this.skipping = null;
    this.chunks = [];
    if (skipped) {
      const match = ID_AT_END.exec(skipped.tail) ?? ID_AT_START.exec(skipped.head);
      const id = match?.[1] ? (JSON.parse(match[1]) as string | number) : null;
      this.onOversized?.(id, bytes);
      return;
    }
    const line = Buffer.concat(chunks).toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      this.corrupt(line);
      return;
    }
    this.onmessage?.(message);
  }

  /** Anything else on stdout means the protocol stream can no longer be trusted: stop the server. */
  private corrupt(line: string): void {
    this.fatal = `the server printed something that is not MCP on stdout: ${clip(line)}`;
    this.onerror?.(new Error(this.fatal));
    const child = this.child;
    this.closed = true;
    this.stopping ??= (async () => {
      if (child) await killProcessTree(child);
    })();
    this.finish();
  }
}
