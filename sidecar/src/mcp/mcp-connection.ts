import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type Progress,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import type { McpLogLevel } from '../protocol/mcp';
import { CallDeadline } from './call-deadline';
import { openTransport } from './connection-transport';
import { startFailure, watchTransport } from './connection-watch';
import { describe } from './describe-error';
import { type Elicit, type ElicitingCall, handleElicitations } from './elicitation-handler';
import { convertCallResult, type McpCallResult } from './mcp-results';
import { McpLoginRequired, type ServerOAuth } from './oauth/server-oauth';
import { abortPromise, listAllTools, type McpToolDef, sleep } from './tool-list';
import { ToolRelister } from './tool-relist';

export type { McpAttachment, McpCallResult } from './mcp-results';
export { type McpToolDef, toolAllowed } from './tool-list';

export interface ResolvedMcpServer {
  id: string;
  name: string;
  transport: 'stdio' | 'streamable_http';
  /** stdio: spawned without a shell; the caller has already turned `.cmd` launchers into a real program. */
  program: string | null;
  args: string[];
  cwd: string | null;
  /** The child's full environment. */
  env: Record<string, string>;
  windowsVerbatimArguments?: boolean;
  url: string | null;
  /** The bearer token is already in `Authorization`. */
  headers: Record<string, string>;
  /** streamable_http without a bearer token: its OAuth login, used when it answers 401. */
  oauth?: ServerOAuth | null;
  /** How long a call waits for the user to log in (a step-up, or a login that lapsed). */
  loginWaitMs?: number;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  allowTools: string[] | null;
  denyTools: string[];
}

/** One progress notification of a running call, as the server sent it (its message cut when long). */
export interface McpProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

export type McpConnectionState = 'connecting' | 'connected' | 'failed' | 'crashed' | 'stopped';

export class McpConnectionError extends Error {
  override name = 'McpConnectionError';
}
/** The server needs the user to log in before it can connect (`authorizationUrl`: where, when known). */
export class McpAuthRequiredError extends McpConnectionError {
  override name = 'McpAuthRequiredError';
  constructor(
    message: string,
    readonly authorizationUrl: string | null,
  ) {
    super(message);
  }
}
export class McpCallError extends Error {
  override name = 'McpCallError';
}

const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

interface Call extends ElicitingCall {
  tool: string;
  id: string | number | null;
  controller: AbortController;
  /** Its progress notifications (their token is its request id). */
  progress: (p: Progress) => void;
}

/**
 * One live connection to an MCP server: initialize and tools/list at connect, then tool calls until close.
 * Failures become McpConnectionError / McpCallError with messages for people; nothing is ever replayed.
 */
export class McpConnection {
  private info: { name: string; version: string } | null = null;
  private toolDefs: McpToolDef[] = [];
  private current: McpConnectionState = 'connecting';
  private error: string | null = null;
  private readonly listeners = new Set<(state: McpConnectionState, error: string | null) => void>();
  private readonly logListeners = new Set<(level: McpLogLevel, data: unknown) => void>();
  private readonly toolListeners = new Set<(tools: readonly McpToolDef[]) => void>();
  private readonly loginListeners = new Set<(url: string | null) => void>();
  /** Calls waiting for the user to log in. */
  private loginWaits = 0;
  private readonly relister: ToolRelister;
  private readonly calls = new Set<Call>();
  /** Calls whose tools/call has not gone out yet, in order; the outgoing message gives each its id. */
  private readonly awaitingId: Call[] = [];
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly server: ResolvedMcpServer,
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly log: Logger,
  ) {
    this.relister = new ToolRelister(client, server, log, {
      connected: () => this.current === 'connected',
      tools: () => this.toolDefs,
      changed: (tools) => {
        this.toolDefs = tools;
        this.emit(this.toolListeners, tools);
      },
      describe,
    });
  }

  static async connect(
    server: ResolvedMcpServer,
    opts: { logger?: Logger; signal?: AbortSignal } = {},
  ): Promise<McpConnection> {
    const log = (opts.logger ?? silentLogger).child({ mcp_server: server.id });
    const fail = (why: string) =>
      new McpConnectionError(`MCP server "${server.name}" could not connect: ${why}`);
    let conn: McpConnection | null = null;
    let opened: ReturnType<typeof openTransport>;
    try {
      opened = openTransport(
        server,
        {
          failRequest: (id, message) => conn?.failRequest(id, message),
          loginWaiter: (id) => conn?.loginWaiter(id) ?? null,
        },
        log,
      );
    } catch (err) {
      throw fail((err as Error).message);
    }
    const { transport, stdio } = opened;

    // Form elicitation only: Cairn checks the answers against the form itself (the SDK does not).
    const client = new Client(
      { name: 'cairn', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    conn = new McpConnection(server, client, transport, log);
    const c = conn;
    watchTransport(transport, stdio, {
      idSent: (tool, id) => {
        const i = c.awaitingId.findIndex((call) => call.tool === tool);
        const call = i >= 0 ? c.awaitingId.splice(i, 1)[0] : undefined;
        if (call) call.id = id;
      },
      progressOf: (token, params) => {
        for (const call of c.calls) if (call.id === token) call.progress(params);
      },
      lost: (why, shutdown) => {
        c.setState('crashed', why);
        for (const call of c.calls) call.controller.abort(new McpCallError(c.unavailable()));
        if (shutdown) void c.shutdown();
      },
      connected: () => c.current === 'connected',
      url: server.url,
      log,
    });
    handleElicitations(client, server, () => c.calls, log);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      c.emit(c.logListeners, n.params.level, n.params.data);
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => c.relister.request());

    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error(`it did not finish starting within ${secs(server.startupTimeoutMs)}`)),
      server.startupTimeoutMs,
    );
    const onAbort = () => deadline.abort(new Error('the connection attempt was cancelled'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    const reqOpts = { signal: deadline.signal, timeout: server.startupTimeoutMs + 1_000 };
    try {
      if (deadline.signal.aborted) throw deadline.signal.reason;
      await Promise.race([client.connect(transport, reqOpts), abortPromise(deadline.signal)]);
      const version = client.getServerVersion();
      c.info = version ? { name: version.name, version: version.version } : null;
      c.toolDefs = await listAllTools(client, server, reqOpts, deadline.signal);
      c.setState('connected', null);
      log.info('mcp server connected', { tools: c.tools.length });
      return c;
    } catch (err) {
      const why = startFailure(err, stdio, deadline.signal);
      c.error = why;
      c.current = 'failed';
      await c.shutdown();
      if (err instanceof McpLoginRequired) throw new McpAuthRequiredError(err.message, err.authorizationUrl);
      throw fail(stdio?.stderr.trim() ? `${why}\nIts last output on stderr:\n${stdio.stderr.trim()}` : why);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  get serverInfo(): { name: string; version: string } | null {
    return this.info;
  }

  /** Every tool the server listed, each marked with whether the allow/deny lists let the agent have it. */
  get tools(): readonly McpToolDef[] {
    return this.toolDefs;
  }

  get state(): McpConnectionState {
    return this.current;
  }

  /** Why it failed or crashed, in words; null otherwise. */
  get lastError(): string | null {
    return this.error;
  }

  onStateChange(listener: (state: McpConnectionState, error: string | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The server's log messages (`notifications/message`), as sent: bounding them is the listener's. */
  onLog(listener: (level: McpLogLevel, data: unknown) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** The tool list changed (`list_changed`, listed again with the allow/deny lists applied). */
  onToolsChange(listener: (tools: readonly McpToolDef[]) => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  /** Calls of this connection wait for the user to log in (`url`: where), or none does any more (null). */
  onLoginWait(listener: (url: string | null) => void): () => void {
    this.loginListeners.add(listener);
    return () => this.loginListeners.delete(listener);
  }

  /**
   * Resolves once the re-list under way or waiting has ended, so a call that changed the tools answers
   * after it; bounded (RELIST_LIMITS.settleMs) and ended by `signal`.
   */
  toolsSettled(signal?: AbortSignal): Promise<void> {
    return this.relister.settled(signal);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    /** `timeoutMs` null: no limit of the server's own (a background call, stopped by its signal). */
    opts: {
      signal?: AbortSignal;
      timeoutMs?: number | null;
      onProgress?: (p: McpProgress) => void;
      /** Puts the server's forms to the user (elicitation); absent: they are answered "cancel". */
      elicit?: Elicit;
    } = {},
  ): Promise<McpCallResult> {
    const tool = this.tools.find((t) => t.name === name);
    if (!tool) throw new McpCallError(`MCP server "${this.server.name}" has no tool named "${name}"`);
    if (!tool.allowed) {
      throw new McpCallError(
        `the tool "${name}" of MCP server "${this.server.name}" is not allowed by its settings`,
      );
    }
    if (this.current !== 'connected') throw new McpCallError(this.unavailable());

    const controller = new AbortController();
    const abort = (why: string) => {
      if (!controller.signal.aborted) controller.abort(new McpCallError(why));
    };
    const timeoutMs = opts.timeoutMs === undefined ? this.server.toolTimeoutMs : opts.timeoutMs;
    const deadline = new CallDeadline(
      timeoutMs,
      `the tool "${name}" of MCP server "${this.server.name}"`,
      abort,
    );
    const call: Call = {
      tool: name,
      id: null,
      controller,
      deadline,
      background: opts.timeoutMs === null,
      elicit: opts.elicit,
      progress: (p) => {
        const progress = deadline.progress(p);
        if (progress && opts.onProgress) this.emit(new Set([opts.onProgress]), progress);
      },
    };
    const onAbort = () => abort(`the call to "${name}" was cancelled`);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    this.calls.add(call);
    this.awaitingId.push(call);
    try {
      // Our own timer (CallDeadline) cancels the call; the SDK then sends notifications/cancelled.
      const result = await this.client.callTool({ name, arguments: args }, undefined, {
        signal: call.controller.signal,
        // Ours is the only timer (2^31-1 ms is the longest a timer may wait): it stops while the user
        // fills a form the server asked for, which the SDK's could not.
        timeout: 2_147_483_647,
        // Asks the server for progress (a progressToken), which restarts our timer. The SDK hands it on
        // only in a later tick, after the call's answer when both come together: it is taken from the
        // transport instead (watchTransport), in order.
        onprogress: () => {},
      });
      return convertCallResult(result as Parameters<typeof convertCallResult>[0]);
    } catch (err) {
      if (call.controller.signal.aborted) throw call.controller.signal.reason as McpCallError;
      // Re-read: the state may have changed while the call was out.
      const state = this.state as McpConnectionState;
      if (state === 'crashed' || state === 'stopped') throw new McpCallError(this.unavailable());
      if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
        throw new McpCallError(this.unavailable());
      }
      throw new McpCallError(
        `the tool "${name}" of MCP server "${this.server.name}" failed: ${describe(err)}`,
      );
    } finally {
      deadline.clear();
      // Ends whatever still hangs on the call: a form the server asked for and left waiting is closed and
      // answered "cancel" (it must not outlive its call).
      if (!controller.signal.aborted) {
        controller.abort(new McpCallError(`the call to "${name}" ended before its form was answered`));
      }
      opts.signal?.removeEventListener('abort', onAbort);
      this.calls.delete(call);
      const i = this.awaitingId.indexOf(call);
      if (i >= 0) this.awaitingId.splice(i, 1);
    }
  }

  /** Stops the server (its whole process tree for stdio) or ends the HTTP session. */
  async close(): Promise<void> {
    if (this.current !== 'stopped') this.setState('stopped', null);
    await this.shutdown();
  }

  private shutdown(): Promise<void> {
    this.closing ??= (async () => {
      const t = this.transport as Partial<StreamableHTTPClientTransport>;
      if (typeof t.terminateSession === 'function' && t.sessionId) {
        // Best effort, bounded: a server that is gone must not hold up the close.
        await Promise.race([t.terminateSession.call(t).catch(() => {}), sleep(2_000)]);
      }
      await this.client.close().catch(() => {});
      await this.transport.close().catch(() => {});
    })();
    return this.closing;
  }

  private setState(state: McpConnectionState, error: string | null): void {
    this.current = state;
    this.error = error;
    this.emit(this.listeners, state, error);
  }

  private emit<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
    for (const l of listeners) {
      try {
        l(...args);
      } catch (err) {
        this.log.warn('mcp listener threw', { error: describe(err) });
      }
    }
  }

  private unavailable(): string {
    if (this.current === 'crashed') return `MCP server "${this.server.name}": ${this.error ?? 'it stopped'}`;
    if (this.current === 'stopped') return `MCP server "${this.server.name}" was stopped`;
    return `MCP server "${this.server.name}" is not connected${this.error ? `: ${this.error}` : ''}`;
  }

  /** The call a request belongs to, to wait in it for the user's login (its clock stopped meanwhile). */
  private loginWaiter(id: string | number | null) {
    const call = id === null ? undefined : [...this.calls].find((c) => c.id === id);
    if (!call) return null;
    return {
      signal: call.controller.signal,
      pause: () => {
        call.deadline.pause();
        this.loginWaits++;
        this.emit(this.loginListeners, this.server.oauth?.authorizationUrl ?? null);
      },
      resume: () => {
        call.deadline.resume();
        if (--this.loginWaits === 0) this.emit(this.loginListeners, null);
      },
    };
  }

  /** A request failed in the transport (answer too large, stream dropped): fail its call now. */
  private failRequest(id: string | number, message: string): void {
    for (const call of this.calls) {
      if (call.id === id && !call.controller.signal.aborted) {
        call.controller.abort(new McpCallError(`MCP server "${this.server.name}": ${message}`));
      }
    }
  }
}
