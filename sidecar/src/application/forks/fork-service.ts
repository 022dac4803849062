import type { AgentRuntime } from '../../agent/agent-runtime';
import type {
  ForkCaller,
  ForkToolPort,
  GatherArguments,
  GatheredFork,
  SpawnArguments,
} from '../../agent/fork-tool';
import { badRequest, CairnError, notFound } from '../../errors';
import type { Logger } from '../../log/logger';
import type { ForkInfo, ForkStatus } from '../../protocol';
import type { Store } from '../../store/store';
import { forkPrompt } from './fork-prompt';
import { type ForkState, forkHistory, forkInfo, forkState } from './fork-records';
import { ForkRuns } from './fork-runs';
import { createForkSession } from './fork-session';

export interface ForkServiceDeps {
  store: Store;
  runtime: AgentRuntime;
  /** The names of the tools a session's model has now: what a fork may be given. */
  toolNames(sessionId: string): string[];
  /** How many forks of one turn run at once (CAIRN_FORK_LIMIT). */
  limit: number;
  /** Stops what a session holds (kernels, MCP servers, loaded tools, background calls). */
  release(sessionId: string): Promise<void>;
  logger: Logger;
}

/**
 * Forks: child sessions a turn spawns from its context, run concurrently (a few at a time), gathered by
 * that turn, and ended with it. The parent's journal tells each fork's queueing, start and end.
 */
export class ForkService implements ForkToolPort {
  readonly limit: number;
  private readonly runs: ForkRuns;

  constructor(private readonly deps: ForkServiceDeps) {
    this.limit = Math.max(1, deps.limit);
    this.runs = new ForkRuns({
      runtime: deps.runtime,
      limit: this.limit,
      changed: (forkId) => this.tell(forkId),
      release: (forkId) => deps.release(forkId),
      logger: deps.logger,
    });
  }

  spawn(caller: ForkCaller, args: SpawnArguments): { fork_id: string; status: ForkStatus } {
    const { store, runtime } = this.deps;
    if (store.sessions.forkOrigin(caller.sessionId)) {
      throw badRequest(
        'A fork cannot spawn forks: do this part of the task yourself, or say in your final reply what is left.',
      );
    }
    const parent = store.sessions.get(caller.sessionId);
    if (!parent) throw notFound('Session', caller.sessionId);
    if (!runtime.isRunning(caller.turnId)) {
      throw new CairnError(
        'conflict',
        `Turn ${caller.turnId} has ended; forks are spawned by a running turn, which gathers them.`,
      );
    }
    this.runs.checkOpen(caller.turnId);
    const tools = args.tools ? this.checkTools(caller.sessionId, args.tools) : null;
    const fork = createForkSession(store, parent, caller, { task: args.task, tools });
    this.runs.add({
      id: fork.id,
      parentTurnId: caller.turnId,
      prompt: forkPrompt(args.task, args.instruction),
    });
    return { fork_id: fork.id, status: this.state(fork.id).status };
  }

  async gatherAll(
    caller: ForkCaller,
    args: GatherArguments,
    signal: AbortSignal,
  ): Promise<Record<string, GatheredFork>> {
    const { store } = this.deps;
    const ids = store.sessions
      .forks(caller.sessionId)
      .filter((f) => f.parent_turn_id === caller.turnId)
      .map((f) => f.id);
    const timeoutMs = args.timeoutSeconds === undefined ? undefined : args.timeoutSeconds * 1000;
    await this.runs.waitFor(ids, timeoutMs, signal);
    const gathered: Record<string, GatheredFork> = {};
    for (const id of ids) {
      const state = this.state(id);
      gathered[id] = {
        status: state.status,
        response: state.response,
        ...(this.runs.isActive(id) ? { timed_out: true as const } : {}),
        ...(args.includeHistory ? { history: forkHistory(store, id) } : {}),
      };
    }
    return gathered;
  }

  status(caller: ForkCaller, forkId: string): ForkInfo {
    return this.info(this.own(caller, forkId));
  }

  async cancel(caller: ForkCaller, forkId: string): Promise<ForkInfo> {
    const fork = this.own(caller, forkId);
    await this.runs.cancel(forkId);
    return this.info(fork);
  }

  /** The parent's turn ends (completed, failed or cancelled): its forks still queued or running are cancelled. */
  parentTurnEnding(turnId: string): Promise<void> {
    return this.runs.endOfTurn(turnId);
  }

  /** A session's forks as `GET /api/sessions/{id}` lists them, oldest first. */
  list(parentSessionId: string): ForkInfo[] {
    return this.deps.store.sessions.forks(parentSessionId).map((fork) => this.info(fork.id));
  }

  private info(forkId: string): ForkInfo {
    const fork = this.deps.store.sessions.get(forkId);
    if (!fork) throw notFound('Fork', forkId);
    return forkInfo(this.deps.store, fork, this.state(forkId));
  }

  private state(forkId: string): ForkState {
    return forkState(this.deps.store, forkId, this.runs.live(forkId));
  }

  /** The fork, when it is one of the calling session's. */
  private own(caller: ForkCaller, forkId: string): string {
    if (this.deps.store.sessions.forkOrigin(forkId)?.parentSessionId !== caller.sessionId)
      throw notFound('Fork', forkId);
    return forkId;
  }

  /** The tools named, each one the parent has (Fork never: a fork spawns no forks). */
  private checkTools(parentSessionId: string, names: string[]): string[] {
    const available = this.deps.toolNames(parentSessionId).filter((name) => name !== 'Fork');
    const unknown = names.filter((name) => !available.includes(name));
    if (unknown.length > 0) {
      throw badRequest(
        `A fork can be given only tools you have; not ${unknown.join(', ')}. Available: ${available.join(', ') || 'none'}.`,
      );
    }
    return [...new Set(names)];
  }

  /** Journals the fork's state on its parent's session, under the turn that spawned it. */
  private tell(forkId: string): void {
    const { store } = this.deps;
    const fork = store.sessions.get(forkId);
    if (!fork?.parent_session_id) return;
    store.events.append(fork.parent_session_id, {
      type: 'fork.updated',
      turn_id: fork.parent_turn_id,
      fork: forkInfo(store, fork, this.state(forkId)),
    });
  }
}
