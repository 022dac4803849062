// Test-only: runs the real Python kernel driver as a subprocess and speaks its protocol (JSON lines, and
// stream text as raw bytes after a header line).
// (The product's client is sidecar/src/kernels/kernel-process.ts; this stays small and independent of it.)
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from '../../../src/tools/child-env';

export const DRIVER_PATH = fileURLToPath(
  new URL('../../../src/kernels/driver/cairn_kernel.py', import.meta.url),
);

export interface ErrorDetails {
  type: string;
  message: string;
  line: number | null;
  column: number | null;
  snippet: string | null;
  pointer: string | null;
  summary: string;
  traceback: string[];
}
export type MimeBundle = Record<string, string>;
export interface ReadyMessage {
  type: 'ready';
  protocol: number;
  python: string;
  implementation: string;
  ipython: boolean;
  pid: number;
}
export interface StreamMessage {
  type: 'stream';
  id: string;
  name: 'stdout' | 'stderr';
  text: string;
}
export interface DisplayMessage {
  type: 'display';
  id: string;
  data: MimeBundle;
}
export interface InputRequestMessage {
  type: 'input_request';
  id: string;
  request_id: string;
  prompt: string;
  password: boolean;
}
export interface ResultMessage {
  type: 'result';
  id: string;
  success: boolean;
  return_value: MimeBundle | null;
  error: ErrorDetails | null;
  execution_time_ms: number;
}
export interface Variable {
  name: string;
  type: string;
  repr: string;
}
export type DriverMessage =
  | ReadyMessage
  | StreamMessage
  | DisplayMessage
  | InputRequestMessage
  | ResultMessage
  | { type: 'reset_done'; id: string }
  | { type: 'variables'; id: string; variables: Variable[] }
  | { type: 'log'; level: string; message: string };

/** One finished execution: its result and every message that carried its id, in arrival order. */
export interface Execution {
  id: string;
  result: ResultMessage;
  messages: DriverMessage[];
  stdout: string;
  stderr: string;
  displays: DisplayMessage[];
}

export interface Interpreter {
  label: string;
  python: string;
  args: string[];
  ipython: boolean;
}

/** The standard-library driver. (python3 on PATH may have IPython installed, so it is switched off.) */
export const STDLIB: Interpreter = {
  label: 'stdlib driver (python3 on PATH)',
  python: 'python3',
  args: ['--no-ipython'],
  ipython: false,
};
/** Debian's Python: IPython, matplotlib and numpy installed. */
export const IPYTHON: Interpreter = {
  label: 'IPython driver (/usr/bin/python3)',
  python: '/usr/bin/python3',
  args: [],
  ipython: true,
};
export const DEBIAN_STDLIB: Interpreter = {
  ...IPYTHON,
  label: 'stdlib driver (/usr/bin/python3)',
  args: ['--no-ipython'],
  ipython: false,
};

/** The oldest Python the driver supports, when pyenv has one here; it runs the stdlib driver. */
function oldestPython(): Interpreter[] {
  const versions = path.join(process.env.PYENV_ROOT ?? path.join(os.homedir(), '.pyenv'), 'versions');
  const found = fs.existsSync(versions)
    ? fs.readdirSync(versions).find((name) => name.startsWith('3.9.'))
    : undefined;
  const python = found && path.join(versions, found, 'bin', 'python3');
  return python && fs.existsSync(python)
    ? [{ label: `stdlib driver (Python ${found})`, python, args: [], ipython: false }]
    : [];
}

/** Every behaviour test runs against each of these. */
export const INTERPRETERS: Interpreter[] = [STDLIB, IPYTHON, ...oldestPython()];

const WAIT_MS = 20_000;

interface Waiter {
  matches(message: DriverMessage): boolean;
  resolve(message: DriverMessage): void;
  cancel(): void;
}

export class DriverProcess {
  /** Every message received, in arrival order. */
  readonly messages: DriverMessage[] = [];
  /** Channel lines that were not JSON: there must never be any. */
  readonly corruptLines: string[] = [];
  /** Resolves with the exit code once the process has exited and the channel is closed. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private diagnostics = '';
  private waiters = new Set<Waiter>();
  private closed = false;
  private executions = 0;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly cwd: string,
    private readonly ownsCwd: boolean,
  ) {
    child.stderr.on('data', (chunk: Buffer) => {
      this.diagnostics += chunk.toString();
    });
    // A failed spawn, or a write to a driver that has exited, shows up as a timeout with this text.
    child.on('error', (error) => {
      this.diagnostics += `\n[spawn error] ${error.message}`;
    });
    child.stdin.on('error', (error) => {
      this.diagnostics += `\n[stdin error] ${error.message}`;
    });
    const reader = new ChannelReader(
      (message) => this.receive(message),
      (line) => this.corruptLines.push(line),
    );
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    const channelClosed = new Promise((resolve) => child.stdout.on('close', resolve));
    const processExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    this.exited = Promise.all([processExit, channelClosed]).then(([exit]) => {
      this.closed = true;
      return exit;
    });
  }

  /** Starts the driver the way the sidecar does (own process group, scrubbed env) and waits for `ready`. */
  static async start(
    interpreter: Interpreter,
    options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
  ): Promise<{ driver: DriverProcess; ready: ReadyMessage }> {
    // (Not support/harness's tempDir: importing the harness would load the whole server for these tests.)
    const cwd =
      options.cwd ?? fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kernel-driver-')));
    const env = {
      ...childEnv(process.env),
      PYTHONUNBUFFERED: '1',
      MPLBACKEND: 'Agg',
      PYTHONIOENCODING: 'utf-8',
      IPYTHONDIR: path.join(cwd, '.ipython'),
      ...options.env,
    };
    const child = spawn(interpreter.python, ['-u', '-X', 'utf8', DRIVER_PATH, ...interpreter.args], {
      cwd,
      env,
      detached: true,
      stdio: 'pipe',
    });
    const driver = new DriverProcess(child, cwd, options.cwd === undefined);
    live.add(driver);
    const ready = await driver.waitFor((m): m is ReadyMessage => m.type === 'ready', 'the ready message');
    return { driver, ready };
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** The first message (already received or still to come) that matches. */
  waitFor<T extends DriverMessage>(
    matches: (message: DriverMessage) => message is T,
    what: string,
    timeoutMs?: number,
  ): Promise<T>;
  waitFor(
    matches: (message: DriverMessage) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<DriverMessage>;
  waitFor(
    matches: (message: DriverMessage) => boolean,
    what: string,
    timeoutMs = WAIT_MS,
  ): Promise<DriverMessage> {
    const found = this.messages.find(matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        cancel: () => clearTimeout(timer),
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`Timed out waiting for ${what}. Driver stderr:\n${this.diagnostics}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Sends an execute and returns its id and a promise of the whole execution. */
  start(code: string): { id: string; done: Promise<Execution> } {
    this.executions += 1;
    const id = `exec-${this.executions}`;
    this.send({ type: 'execute', id, code });
    const done = this.waitFor(
      (m): m is ResultMessage => m.type === 'result' && m.id === id,
      `result of ${id}`,
    ).then((result) => this.execution(id, result));
    return { id, done };
  }

  execute(code: string): Promise<Execution> {
    return this.start(code).done;
  }

  /** Messages carrying an execution's id, in arrival order. */
  messagesOf(id: string): DriverMessage[] {
    return this.messages.filter((m) => 'id' in m && m.id === id);
  }

  /** Waits until this execution has streamed `text` (anywhere in its stdout/stderr so far). */
  waitForOutput(id: string, text: string): Promise<DriverMessage> {
    return this.waitFor(
      () =>
        this.messagesOf(id)
          .map((m) => (m.type === 'stream' ? m.text : ''))
          .join('')
          .includes(text),
      `output ${JSON.stringify(text)} from ${id}`,
    );
  }

  /** What the host does on POSIX to interrupt: SIGINT to the driver's whole process group. */
  interruptGroup(): void {
    process.kill(-this.pid, 'SIGINT');
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  /** Ends the driver and anything it started. */
  async close(): Promise<void> {
    live.delete(this);
    // What the test did not wait for (say the result of a cell that ended the process) never settles.
    for (const waiter of this.waiters) waiter.cancel();
    this.waiters.clear();
    if (!this.closed) {
      try {
        process.kill(-this.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await this.exited;
    }
    if (this.ownsCwd) fs.rmSync(this.cwd, { recursive: true, force: true });
  }

  private receive(message: DriverMessage): void {
    this.messages.push(message);
    for (const waiter of this.waiters) {
      if (waiter.matches(message)) {
        this.waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
  }

  private execution(id: string, result: ResultMessage): Execution {
    const messages = this.messagesOf(id);
    const text = (name: string) =>
      messages
        .filter((m): m is StreamMessage => m.type === 'stream' && m.name === name)
        .map((m) => m.text)
        .join('');
    const displays = messages.filter((m): m is DisplayMessage => m.type === 'display');
    return { id, result, messages, stdout: text('stdout'), stderr: text('stderr'), displays };
  }
}

/**
 * Splits the channel into messages: JSON lines, and for a stream header (`bytes`) the raw text after it,
 * turned into a StreamMessage with `text`. Bytes are joined only once a message is complete.
 */
class ChannelReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The stream header whose text is being read. */
  private header: { type: 'stream'; id: string; name: 'stdout' | 'stderr'; bytes: number } | null = null;

  constructor(
    private readonly onMessage: (message: DriverMessage) => void,
    private readonly onCorrupt: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Without a header, only the new chunk can hold the newline that completes a line.
    if (this.header ? this.size < this.header.bytes : !chunk.includes(0x0a)) return;
    let buffer = Buffer.concat(this.chunks, this.size);
    for (;;) {
      if (this.header) {
        if (buffer.length < this.header.bytes) break;
        const { bytes, ...rest } = this.header;
        this.header = null;
        this.onMessage({ ...rest, text: buffer.subarray(0, bytes).toString('utf8') });
        buffer = buffer.subarray(bytes);
        continue;
      }
      const newline = buffer.indexOf(0x0a);
      if (newline === -1) break;
      this.line(buffer.subarray(0, newline).toString('utf8'));
      buffer = buffer.subarray(newline + 1);
    }
    this.chunks = buffer.length > 0 ? [buffer] : [];
    this.size = buffer.length;
  }

  private line(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.onCorrupt(line);
      return;
    }
    const bytes = message.bytes;
    if (message.type !== 'stream') this.onMessage(message as unknown as DriverMessage);
    else if (typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes >= 0 && !('text' in message))
      this.header = message as unknown as NonNullable<ChannelReader['header']>;
    else this.onCorrupt(line);
  }
}

const live = new Set<DriverProcess>();

/** For afterEach: ends every driver a test started. */
export async function closeAllDrivers(): Promise<void> {
  await Promise.all([...live].map((driver) => driver.close()));
}
