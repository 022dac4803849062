import { randomBytes } from 'node:crypto';
import type { SandboxSpec } from '../../process/sandbox';
import type { LoadedTool, ToolCall } from '../../protocol';
import type { ForkOrigin } from '../../store/sessions-repo';
import type { Store } from '../../store/store';
import { type Tool, ToolError } from '../tool';
import type { ToolCallFiles } from '../tool-call-files';
import type { ToolScope, ToolSource } from '../tool-source';
import type { CallOutcome } from './call-request';
import type { LoadedToolRegistry } from './loaded/load-tool';
import type { LoadedToolHandle } from './loaded/tool-loader';
import type { ToolCallRunner } from './tool-call-runner';

export interface SessionToolRuntimeDeps {
  sessionId: string;
  store: Store;
  files: ToolCallFiles;
  runner: ToolCallRunner;
  /** Built-in, context, kernel and MCP tools, asked at each turn's start. */
  sources: ToolSource;
  /** The runtime's own tools (ToolControl, LoadTool), made once for this session. */
  ownTools(registry: LoadedToolRegistry): Tool[];
  /** Told when a loaded tool is added or changes (its worker ended). */
  onLoadedChange(info: LoadedTool): void;
  /** The sandbox of the session's project, asked as each call starts; absent: none. */
  sandbox?: () => Promise<SandboxSpec | null>;
}

/** Tools a fork never gets, whatever it names: it cannot spawn forks of its own. */
const NOT_FOR_FORKS = new Set(['Fork']);

/** What a script's call asks for (the endpoint's `call`, already checked). */
export interface ScriptCall {
  name: string;
  arguments: Record<string, unknown>;
  method?: string | undefined;
  union_id?: string | undefined;
  is_wait: boolean;
}

/**
 * One session's tool runtime, owned by the application and borrowed by the agent loop for each turn: the
 * tools (those of the turn's sources, the runtime's own, the loaded ones), the calls of the model and of
 * its scripts through one runner, and the notices of background calls that ended while a turn runs.
 */
export class SessionToolRuntime implements LoadedToolRegistry {
  private base: Tool[] = [];
  /** The running (or last) turn's scope: its sources are asked whether their tools changed since. */
  private scope: ToolScope | null = null;
  private projectRoot: string | null = null;
  private turnId: string | null = null;
  private notices: string[] = [];
  private readonly loaded = new Map<string, LoadedToolHandle>();
  private readonly own: Tool[];
  private closed = false;
  /** A fork's parent and the tools it may use (null: the parent's); read once, since they never change. */
  private readonly fork: ForkOrigin | null;

  constructor(private readonly deps: SessionToolRuntimeDeps) {
    this.own = deps.ownTools(this);
    this.fork = deps.store.sessions.forkOrigin(deps.sessionId);
  }

  get sessionId(): string {
    return this.deps.sessionId;
  }

  /** A turn starts: its tools are gathered (kernels open, MCP servers start) and its notices collected. */
  async beginTurn(scope: ToolScope): Promise<void> {
    this.base = await this.deps.sources.toolsForTurn(scope);
    this.scope = scope;
    this.projectRoot = scope.projectRoot;
    this.turnId = scope.turnId;
    this.notices = [];
  }

  endTurn(turnId: string): void {
    if (this.turnId !== turnId) return;
    this.turnId = null;
    this.notices = [];
  }

  /**
   * The tools now, the scripts' own included: a tool loaded during the turn (or an MCP server's changed
   * list) is there from the next request on. A fork has only those it was given, and never Fork.
   */
  tools(): Tool[] {
    const own = this.own.filter((t) => !t.needsProject || this.projectRoot !== null);
    const base = (this.scope && this.deps.sources.currentTools?.(this.scope)) ?? this.base;
    const all = [...base, ...own, ...[...this.loaded.values()].map((h) => h.tool)];
    if (!this.fork) return all;
    const named = this.fork.tools ? new Set(this.fork.tools) : null;
    // The scripts' own tools (Memory) come with the scripting tools named: a subset is of the model's tools.
    return all.filter(
      (t) => !NOT_FOR_FORKS.has(t.name) && (!named || named.has(t.name) || t.scriptOnly === true),
    );
  }

  /** The tools the model is offered and may call: all but those only scripts call. */
  modelTools(): Tool[] {
    return this.tools().filter((t) => !t.scriptOnly);
  }

  /** The model's call, from a tool_use block of the running turn. */
  runForModel(use: { id: string; name: string; input: unknown }, signal: AbortSignal): Promise<CallOutcome> {
    if (this.turnId === null) throw new Error('no turn is running in this session');
    return this.deps.runner.run({
      sessionId: this.sessionId,
      turnId: this.turnId,
      projectRoot: this.projectRoot,
      toolUseId: use.id,
      name: use.name,
      input: use.input,
      tools: this.modelTools(),
      approvalMode: () => this.approvalMode(),
      parentCallId: null,
      signal,
      ...this.sandboxOption(),
    });
  }

  /**
   * A call from the script of `parent` (a running call of this session), with the same tools, approvals
   * and records as the model's. A waited call stops with its parent and when the script stops waiting.
   */
  runForScript(parent: ToolCall, call: ScriptCall, signal: AbortSignal): Promise<CallOutcome> {
    const input =
      call.method !== undefined
        ? {
            method: call.method,
            ...(call.union_id !== undefined ? { union_id: call.union_id } : {}),
            arguments: call.arguments,
            ...(call.is_wait ? {} : { is_wait: false }),
          }
        : { ...call.arguments, ...(call.is_wait ? {} : { is_wait: false }) };
    const parentSignal = this.deps.runner.running.get(parent.id)?.controller.signal;
    return this.deps.runner.run({
      sessionId: this.sessionId,
      turnId: parent.turn_id,
      projectRoot: this.projectRoot,
      toolUseId: `script_${randomBytes(9).toString('base64url')}`,
      name: call.name,
      input,
      tools: this.tools(),
      approvalMode: () => this.approvalMode(),
      parentCallId: parent.id,
      signal: parentSignal ? AbortSignal.any([signal, parentSignal]) : signal,
      ...this.sandboxOption(),
    });
  }

  /** The notices gathered since the last request, for the next one; each is one line. */
  takeNotices(): string[] {
    const taken = this.notices;
    this.notices = [];
    return taken;
  }

  /** A call ended: a background one that ends while a turn runs is noticed in the next request. */
  callEnded(call: ToolCall): void {
    if (!call.background || this.turnId === null) return;
    this.notices.push(endNotice(call, this.deps.files.callDir(call.session_id, call.id)));
  }

  /** Whether a name is in use: a loaded tool whose worker crashed leaves its name free to load again. */
  taken(name: string): boolean {
    return this.tools().some((t) => t.name === name && this.loaded.get(name)?.info().state !== 'crashed');
  }

  register(handle: LoadedToolHandle): void {
    const name = handle.tool.name;
    if (this.closed) throw new ToolError('The session is closing; no tool can be loaded now.');
    if (this.taken(name)) {
      throw new ToolError(
        `A tool named ${name} exists already in this session; give the new one another name.`,
      );
    }
    // Loading again after a crash replaces the crashed one.
    const crashed = this.loaded.get(name);
    if (crashed) void crashed.stop();
    this.loaded.set(name, handle);
    handle.onChange((info) => this.deps.onLoadedChange(info));
    this.deps.onLoadedChange(handle.info());
  }

  loadedTools(): LoadedTool[] {
    return [...this.loaded.values()].map((h) => h.info());
  }

  /**
   * Stops every loaded tool (their workers and what they started), e.g. when the project's sandbox setting
   * changed: none keeps running under the old one. The agent loads them again; their names are free.
   */
  async stopLoaded(): Promise<number> {
    const handles = [...this.loaded.values()];
    this.loaded.clear();
    await Promise.all(handles.map((h) => h.stop()));
    return handles.length;
  }

  /** The session is deleted or Cairn stops: its calls are stopped and its loaded tools' workers ended. */
  async close(kind: 'session_closed' | 'shutdown'): Promise<void> {
    this.closed = true;
    await this.deps.runner.stopAll(this.sessionId, kind);
    await this.stopLoaded();
  }

  private sandboxOption(): { sandbox?: () => Promise<SandboxSpec | null> } {
    return this.deps.sandbox ? { sandbox: this.deps.sandbox } : {};
  }

  private approvalMode() {
    // Fail closed: a session that cannot be read asks rather than runs. A fork runs in its parent's mode,
    // as it stands when each call starts.
    return this.deps.store.sessions.get(this.fork?.parentSessionId ?? this.sessionId)?.approval ?? 'ask';
  }
}

/** One line for the model: which call ended, how, and how to read it. */
export function endNotice(call: ToolCall, resultDir: string): string {
  const seconds = call.duration_ms === null ? '' : ` after ${(call.duration_ms / 1000).toFixed(1)} s`;
  const how =
    call.exit_code !== null && call.exit_code !== undefined
      ? `${call.status} (exit code ${call.exit_code})`
      : call.status;
  return (
    `[Cairn] Background call ${call.id} (${call.name}) ended: ${how}${seconds}. ` +
    `Read it with ToolControl {"action": "output", "call_id": "${call.id}"} or Read ${resultDir}/result.txt.`
  );
}
