import path from 'node:path';
import type { QuestionBroker } from '../../agent/question-broker';
import { notFound } from '../../errors';
import type { Logger } from '../../log/logger';
import type { SandboxSpec } from '../../process/sandbox';
import type { ToolCall, ToolCallOutput, ToolCallOutputQuery, ToolRuntimeInfo } from '../../protocol';
import type { Store } from '../../store/store';
import { CallInspector } from '../../tools/runtime/call-inspector';
import type { LoadedToolRegistry } from '../../tools/runtime/loaded/load-tool';
import { ScriptAccessProvider } from '../../tools/runtime/script-access';
import { ScriptEndpoint } from '../../tools/runtime/script-endpoint';
import { ScriptRpc } from '../../tools/runtime/script-rpc';
import { ScriptTokens } from '../../tools/runtime/script-tokens';
import { SessionToolRuntime } from '../../tools/runtime/session-tool-runtime';
import { ToolCallRunner } from '../../tools/runtime/tool-call-runner';
import { toolControlTool } from '../../tools/runtime/tool-control';
import type { Tool } from '../../tools/tool';
import type { ToolCallFiles } from '../../tools/tool-call-files';
import type { ToolSource } from '../../tools/tool-source';
import type { SessionResource } from '../sessions/session-resources';

export interface ToolRuntimeServiceDeps {
  store: Store;
  files: ToolCallFiles;
  broker: QuestionBroker;
  logger: Logger;
  dataDir: string;
  /** The tools a turn gets from elsewhere: built-in, context, kernels, MCP. */
  sources: ToolSource;
  /** More tools of the runtime's own for a session (LoadTool), given its registry of loaded tools. */
  loadTool?: (registry: LoadedToolRegistry) => Tool;
  /** The sandbox of a session's project, asked as each call starts (ProjectSandboxService.forSession). */
  sandbox?: (sessionId: string) => Promise<SandboxSpec | null>;
}

/** Tools whose processes are confined by the sandbox and outlive no setting change: their calls stop. */
const SANDBOXED_CALLS = new Set(['Bash', 'Exec']);

/**
 * The tool runtime of every session, owned here and borrowed by the agent loop: one runner for the calls
 * of the model and of scripts, one script endpoint for the whole process, and per session its tools,
 * loaded tools and background calls. Deleting a session stops its calls and workers; stopping Cairn, all.
 */
export class ToolRuntimeService implements SessionResource {
  readonly runner: ToolCallRunner;
  readonly inspector: CallInspector;
  private readonly endpoint: ScriptEndpoint;
  private readonly access: ScriptAccessProvider;
  private readonly sessions = new Map<string, SessionToolRuntime>();
  private closed = false;

  constructor(private readonly deps: ToolRuntimeServiceDeps) {
    const tokens = new ScriptTokens();
    let rpc: ScriptRpc | null = null;
    this.endpoint = new ScriptEndpoint((message) => rpc!.handle(message), {
      admits: (token) => tokens.resolve(token) !== null,
    });
    const access = new ScriptAccessProvider(this.endpoint, path.join(deps.dataDir, 'bin'));
    this.access = access;
    this.runner = new ToolCallRunner({
      store: deps.store,
      files: deps.files,
      questions: deps.broker,
      tokens,
      scriptAccess: async (token) => {
        if (this.closed) return null;
        try {
          return await access.access(token);
        } catch (error) {
          deps.logger.warn('the script endpoint is not available', { error });
          return null;
        }
      },
      logger: deps.logger,
      onEnded: (call) => this.sessions.get(call.session_id)?.callEnded(call),
    });
    this.inspector = new CallInspector({ store: deps.store, files: deps.files, runner: this.runner });
    rpc = new ScriptRpc({
      store: deps.store,
      tokens,
      inspector: this.inspector,
      runtime: (sessionId) => this.sessions.get(sessionId) ?? null,
    });
  }

  /** The session's runtime, made on first use. */
  session(sessionId: string): SessionToolRuntime {
    const existing = this.sessions.get(sessionId);
    if (existing) return existing;
    const { store, files } = this.deps;
    const runtime = new SessionToolRuntime({
      sessionId,
      store,
      files,
      runner: this.runner,
      sources: this.deps.sources,
      ownTools: (registry) => [
        toolControlTool({
          inspector: this.inspector,
          loadedTools: (id) => this.sessions.get(id)?.loadedTools() ?? [],
        }),
        ...(this.deps.loadTool ? [this.deps.loadTool(registry)] : []),
      ],
      onLoadedChange: (tool) => store.events.append(sessionId, { type: 'tool.loaded', turn_id: null, tool }),
      ...(this.deps.sandbox ? { sandbox: () => this.deps.sandbox!(sessionId) } : {}),
    });
    this.sessions.set(sessionId, runtime);
    return runtime;
  }

  /** What a local kernel is given at its start to reach the tools (the token comes with each agent cell). */
  scriptEnv(base: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
    return this.access.env(base);
  }

  /** Both addresses scripts may use: loopback TCP, and the Unix socket (null on Windows). */
  async scriptEndpoints(): Promise<{ tcp: string; unix: string | null }> {
    return { tcp: await this.endpoint.endpoint(), unix: await this.endpoint.unixEndpoint() };
  }

  /** The folder of the endpoint's Unix socket (bound into sandboxes), null where there is none. */
  async socketDir(): Promise<string | null> {
    const unix = await this.endpoint.unixEndpoint();
    return unix ? path.dirname(unix.slice('unix:'.length)) : null;
  }

  /**
   * The sessions' project changed its sandbox setting: their shell commands still running are stopped and
   * their loaded tools' workers ended, so nothing runs on under the old setting (the agent loads them again).
   */
  async sandboxChanged(sessionIds: readonly string[]): Promise<void> {
    const message =
      "Stopped: the project's sandbox setting changed while it ran. Run it again to use the new one.";
    await Promise.all(
      sessionIds.flatMap((id) => [
        ...this.runner.running
          .inSession(id)
          .filter((c) => SANDBOXED_CALLS.has(c.name))
          .map((c) => this.runner.cancel(c.id, 'cancelled', message)),
        this.sessions.get(id)?.stopLoaded() ?? Promise.resolve(0),
      ]),
    );
  }

  /** The session's background calls and loaded tools, for the UI. */
  info(sessionId: string): ToolRuntimeInfo {
    this.requireSession(sessionId);
    return {
      calls: this.inspector.list(sessionId),
      loaded_tools: this.sessions.get(sessionId)?.loadedTools() ?? [],
    };
  }

  output(callId: string, query: ToolCallOutputQuery): ToolCallOutput {
    const call = this.requireCall(callId);
    return this.inspector.output(call.session_id, call.id, query.after);
  }

  /** The user's cancel: the call (with what its scripts started) stops; an ended call is left as it is. */
  async cancel(callId: string): Promise<ToolCall> {
    const call = this.requireCall(callId);
    return (await this.inspector.cancel(call.session_id, call.id)).call;
  }

  /** The running background calls of a session, e.g. for `cairn run` to cancel as it exits. */
  runningBackground(sessionId: string): ToolCall[] {
    return this.runner.running
      .inSession(sessionId)
      .filter((c) => c.background)
      .map((c) => this.deps.store.toolCalls.get(c.id))
      .filter((c): c is ToolCall => c !== null);
  }

  async closeSession(sessionId: string): Promise<void> {
    const runtime = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    // Every call of a session runs through its runtime, which stops them all.
    await runtime?.close('session_closed');
  }

  /** Cairn stops: every call is stopped (marked interrupted), every worker ended, the endpoint closed. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const runtimes = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(runtimes.map((r) => r.close('shutdown')));
    await this.runner.stopAll(null, 'shutdown');
    await this.endpoint.close();
  }

  private requireSession(sessionId: string): void {
    if (!this.deps.store.sessions.get(sessionId)) throw notFound('Session', sessionId);
  }

  private requireCall(callId: string): ToolCall {
    const call = this.deps.store.toolCalls.get(callId);
    if (!call) throw notFound('Tool call', callId);
    return call;
  }
}
