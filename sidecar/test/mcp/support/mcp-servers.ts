// Real MCP servers for the connection tests: server-everything (stdio and Streamable HTTP on loopback),
// server-filesystem, and the misbehaving fixture server.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { McpConnection, type ResolvedMcpServer } from '../../../src/mcp/mcp-connection';
import { freeLoopbackPort } from '../../support/loopback-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const EVERYTHING = path.join(
  root,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const FILESYSTEM = path.join(
  root,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
export const BAD_SERVER = path.join(root, 'sidecar/test/mcp/fixtures/bad-server.mjs');

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** A stdio server running `node <script> <args…>`. */
export function nodeServer(
  script: string,
  args: string[],
  over: Partial<ResolvedMcpServer> = {},
): ResolvedMcpServer {
  return {
    id: 'srv-1',
    name: 'test server',
    transport: 'stdio',
    program: process.execPath,
    args: [script, ...args],
    cwd: null,
    env: baseEnv(),
    url: null,
    headers: {},
    startupTimeoutMs: 20_000,
    toolTimeoutMs: 20_000,
    allowTools: null,
    denyTools: [],
    ...over,
  };
}

export function httpServer(url: string, over: Partial<ResolvedMcpServer> = {}): ResolvedMcpServer {
  return {
    ...nodeServer('', [], over),
    transport: 'streamable_http',
    program: null,
    args: [],
    url,
    ...over,
  };
}

/** Whether a process exists and is not a zombie waiting to be reaped. */
export function pidAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface EverythingHttp {
  /** http://127.0.0.1:PORT/mcp — never another interface, though the server listens on all of them. */
  url: string;
  child: ChildProcess;
  /** How many POST requests it has logged receiving so far. */
  posts(): number;
  stop(): Promise<void>;
}

/** server-everything in Streamable HTTP mode, ready once it says it listens. */
export async function startEverythingHttp(): Promise<EverythingHttp> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let posts = 0;
  child.stdout?.on('data', (d: Buffer) => {
    posts += d.toString().split('Received MCP POST request').length - 1;
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${stderr}`)), 20_000);
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('listening on port')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code}): ${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    posts: () => posts,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** McpConnection.connect for one test file: every connection it makes is closed after each test. */
export function connectionsClosedAfterEach(): typeof McpConnection.connect {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  return async (...args) => {
    const c = await McpConnection.connect(...args);
    open.push(c);
    return c;
  };
}
