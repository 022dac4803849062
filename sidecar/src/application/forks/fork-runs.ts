import type { AgentRuntime } from '../../agent/agent-runtime';
import { CairnError } from '../../errors';
import type { Logger } from '../../log/logger';
import { forkRequestId } from './fork-prompt';
import type { LiveForkState } from './fork-records';

/** A fork of a running turn, from its spawn until that turn has ended. */
interface LiveFork {
  id: string;
  parentTurnId: string;
  prompt: string;
  state: 'queued' | 'running' | 'ended';
  turnId: string | null;
  /** Why its turn could not start. */
  startError: string | null;
  /** Resolves once its end is told (after its turn ended, or it left the queue). */
  ended: Promise<void>;
  markEnded: () => void;
  /** Its kernels, MCP servers, loaded tools and background calls being stopped, once it has ended. */
  released: Promise<void> | null;
}

/** The forks of one parent turn, in the order they were spawned. */
interface TurnForks {
  forks: LiveFork[];
  /** The turn is ending: nothing of it starts any more. */
  closing: boolean;
}

export interface ForkRunsDeps {
  runtime: Pick<AgentRuntime, 'startTurn' | 'cancelTurn' | 'waitForTurn'>;
  /** How many forks of one parent turn run at once; the rest wait in order. */
  limit: number;
  /** A fork was queued, started or ended: its parent hears of it. */
  changed(forkId: string): void;
  /**
   * A fork's one turn has ended: what its session holds (kernels, MCP servers, loaded tools, background
   * calls) stops, since a fork runs no other turn.
   */
  release(forkId: string): Promise<void>;
  logger: Logger;
}

/**
 * Runs forks: at most `limit` per parent turn, the rest queued in spawn order; each fork's one turn is an
 * ordinary turn of its own session. When the parent's turn ends, its forks end with it.
 */
export class ForkRuns {
  private readonly turns = new Map<string, TurnForks>();
  private readonly forks = new Map<string, LiveFork>();
  private readonly limit: number;

  constructor(private readonly deps: ForkRunsDeps) {
    this.limit = Math.max(1, deps.limit);
  }

  /** Refuses forks for a turn that is ending. */
  checkOpen(parentTurnId: string): void {
    if (this.turns.get(parentTurnId)?.closing) {
      throw new CairnError(
        'conflict',
        `Turn ${parentTurnId} is ending, so no fork can start for it; spawn forks while the turn runs.`,
      );
    }
  }

  /** Starts the fork's turn now, or queues it behind the forks of its parent turn that run. */
  add(fork: { id: string; parentTurnId: string; prompt: string }): void {
    this.checkOpen(fork.parentTurnId);
    let group = this.turns.get(fork.parentTurnId);
    if (!group) {
      group = { forks: [], closing: false };
      this.turns.set(fork.parentTurnId, group);
    }
    let markEnded: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      markEnded = resolve;
    });
    const live: LiveFork = {
      ...fork,
      state: 'queued',
      turnId: null,
      startError: null,
      ended,
      markEnded,
      released: null,
    };
    group.forks.push(live);
    this.forks.set(fork.id, live);
    if (running(group) < this.limit) this.start(live);
    else this.tell(live.id);
  }

  /** What only this process knows of the fork; null once its parent turn has ended. */
  live(forkId: string): LiveForkState | null {
    const live = this.forks.get(forkId);
    return live ? { queued: live.state === 'queued', startError: live.startError } : null;
  }

  /** Whether the fork's turn is still ahead of it or running. */
  isActive(forkId: string): boolean {
    const state = this.forks.get(forkId)?.state;
    return state === 'queued' || state === 'running';
  }

  /** Cancels a fork (its turn, or its place in the queue); resolves once its end is told. */
  async cancel(forkId: string): Promise<void> {
    const live = this.forks.get(forkId);
    if (!live) return;
    if (live.state === 'queued') this.end(live);
    else if (live.state === 'running' && live.turnId) await this.deps.runtime.cancelTurn(live.turnId);
    await live.ended;
  }

  /**
   * Resolves when every fork named has ended, or after `timeoutMs`; rejects with the signal's reason when
   * it is aborted (the waiting call was cancelled).
   */
  async waitFor(forkIds: string[], timeoutMs: number | undefined, signal: AbortSignal): Promise<void> {
    const ends = Promise.all(forkIds.map((id) => this.forks.get(id)?.ended));
    let timer: NodeJS.Timeout | undefined;
    let onAbort: () => void = () => undefined;
    const stop = new Promise<void>((resolve, reject) => {
      // Longer than a timer holds (about 24.8 days), setTimeout would fire at once: wait without one.
      if (timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS) timer = setTimeout(resolve, timeoutMs);
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([ends, stop]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** The parent's turn ends: its queued forks leave the queue, its running ones are cancelled. */
  async endOfTurn(parentTurnId: string): Promise<void> {
    const group = this.turns.get(parentTurnId);
    if (!group) return;
    group.closing = true;
    for (const live of group.forks) if (live.state === 'queued') this.end(live);
    await Promise.all(group.forks.map((live) => this.cancel(live.id)));
    // Their processes too: nothing a fork started runs on after the turn that spawned it.
    await Promise.all(group.forks.map((live) => live.released));
    this.turns.delete(parentTurnId);
    for (const live of group.forks) this.forks.delete(live.id);
  }

  private start(live: LiveFork): void {
    live.state = 'running';
    let turnId: string;
    try {
      turnId = this.deps.runtime.startTurn(live.id, live.prompt, forkRequestId(live.id)).turn.id;
    } catch (error) {
      live.startError = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn('a fork could not start', { fork: live.id, error });
      this.end(live);
      return;
    }
    live.turnId = turnId;
    this.tell(live.id);
    const ended = () => this.end(live);
    this.deps.runtime.waitForTurn(turnId).then(ended, ended);
  }

  private end(live: LiveFork): void {
    if (live.state === 'ended') return;
    live.state = 'ended';
    if (live.turnId !== null) {
      live.released = this.deps.release(live.id).catch((error: unknown) => {
        this.deps.logger.warn('stopping what a fork left running failed', { fork: live.id, error });
      });
    }
    this.tell(live.id);
    live.markEnded();
    const group = this.turns.get(live.parentTurnId);
    if (!group || group.closing) return;
    for (const next of group.forks) {
      if (running(group) >= this.limit) break;
      if (next.state === 'queued') this.start(next);
    }
  }

  private tell(forkId: string): void {
    try {
      this.deps.changed(forkId);
    } catch (error) {
      this.deps.logger.warn('telling a fork’s parent of it failed', { fork: forkId, error });
    }
  }
}

/** The longest delay setTimeout takes (2^31-1 ms); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function running(group: TurnForks): number {
  return group.forks.filter((f) => f.state === 'running').length;
}
