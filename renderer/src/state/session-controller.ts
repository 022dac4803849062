import type { EventStream } from '../../../sidecar/src/client';
import { ApiError, type CairnClient } from '../../../sidecar/src/client';
import type { AnswerQuestionRequest, CairnEvent, ForkInfo, Turn } from '../../../sidecar/src/protocol';
import { isContextEvent } from './compaction-item';
import { forksByTurn, upsertFork } from './fork-items';
import {
  applyEvent,
  type TurnView,
  turnFromHistory,
  turnFromStart,
  turnFromTurn,
  withForks,
} from './turn-view';

export const PAGE_SIZE = 30;
/** The events that end a turn: its estimated cost is read then (the events carry tokens, not prices). */
const TURN_ENDS = new Set<CairnEvent['type']>([
  'turn.completed',
  'turn.failed',
  'turn.cancelled',
  'turn.interrupted',
]);

/** Where live journal events come from: the session's one subscription (SessionController.listen). */
export interface EventSource {
  listen(listener: (event: CairnEvent) => void): () => void;
}

export interface SessionSnapshot {
  sessionId: string;
  turns: TurnView[];
  nextBefore: number | null;
  loading: boolean;
  loadingEarlier: boolean;
  error: string | null;
  running: TurnView | null;
  /** The forks the session's turns spawned, oldest first (each also shows under its turn). */
  forks: ForkInfo[];
}

/** What a session shows before its first page has arrived. */
export function loadingSnapshot(sessionId: string): SessionSnapshot {
  return {
    sessionId,
    turns: [],
    nextBefore: null,
    loading: true,
    loadingEarlier: false,
    error: null,
    running: null,
    forks: [],
  };
}

/**
 * One open session: its newest page of turns, older pages on demand, and live events applied
 * on top. A turn that is running when the session opens is rebuilt from its own events, so a
 * reload shows its streamed text, tool output and pending questions as they were.
 */
export class SessionController {
  private snapshot: SessionSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly eventListeners = new Set<(event: CairnEvent) => void>();
  private unsubscribe: (() => void) | null = null;
  private disposed = false;

  constructor(
    private readonly client: CairnClient,
    private readonly stream: EventStream,
    readonly sessionId: string,
  ) {
    this.snapshot = loadingSnapshot(sessionId);
  }

  private started: Promise<void> | null = null;

  /** Loads the newest page, then subscribes to live events; once, however often it is called. */
  start(): Promise<void> {
    this.started ??= this.load();
    return this.started;
  }

  /** Settles once the first page is in and the live subscription is made (or loading failed). */
  whenStarted = (): Promise<void> => this.started ?? this.start();

  private async load(): Promise<void> {
    try {
      const page = await this.client.listTurns(this.sessionId, { limit: PAGE_SIZE });
      const turns = await Promise.all(
        page.turns.map(async (t) => {
          if (t.status !== 'running') return turnFromHistory(t);
          const events = await this.client.turnEvents(this.sessionId, t.id);
          return rebuild(events.filter((e) => e.seq <= page.last_seq)) ?? turnFromHistory(t);
        }),
      );
      // Read after the page, so the forks are at least as new as its last_seq: later events replay on top.
      const forks = await this.readForks();
      if (this.disposed) return;
      this.update({
        turns: attachForks(turns, forks.list),
        forks: forks.list,
        nextBefore: page.next_before,
        loading: false,
        error: forks.error,
      });
      this.unsubscribe = this.stream.subscribe(this.sessionId, page.last_seq, (event) => this.onEvent(event));
    } catch (error) {
      this.update({ loading: false, error: messageOf(error) });
    }
  }

  /** The session's forks from its detail; the turns still show when they cannot be read (the error says so). */
  private async readForks(): Promise<{ list: ForkInfo[]; error: string | null }> {
    try {
      return { list: (await this.client.getSession(this.sessionId)).forks, error: null };
    } catch (error) {
      return { list: [], error: messageOf(error) };
    }
  }

  async loadEarlier(): Promise<void> {
    const before = this.snapshot.nextBefore;
    if (before === null || this.snapshot.loadingEarlier) return;
    this.update({ loadingEarlier: true });
    try {
      const page = await this.client.listTurns(this.sessionId, { limit: PAGE_SIZE, before });
      const older = attachForks(page.turns.map(turnFromHistory), this.snapshot.forks);
      this.update({
        turns: [...older, ...this.snapshot.turns],
        nextBefore: page.next_before,
        loadingEarlier: false,
      });
    } catch (error) {
      this.update({ loadingEarlier: false, error: messageOf(error) });
    }
  }

  /**
   * Pages earlier turns in until `turnId` is loaded (a search hit, a link to a parent's turn); its index,
   * or -1 when the session has no such turn or a page could not be read.
   */
  async loadUntil(turnId: string): Promise<number> {
    await this.whenStarted();
    for (;;) {
      const index = this.snapshot.turns.findIndex((t) => t.turn.id === turnId);
      if (index !== -1 || this.snapshot.nextBefore === null || this.disposed) return index;
      const count = this.snapshot.turns.length;
      await this.loadEarlier();
      // Nothing came (an error, or a page already on its way for "Load earlier"): stop rather than spin.
      if (this.snapshot.turns.length === count) return -1;
    }
  }

  async send(prompt: string): Promise<void> {
    await this.client.startTurn(this.sessionId, prompt, crypto.randomUUID());
  }

  async cancel(): Promise<void> {
    const running = this.snapshot.running;
    if (running) await this.client.cancelTurn(running.turn.id);
  }

  async retry(turnId: string): Promise<void> {
    const turn = this.snapshot.turns.find((t) => t.turn.id === turnId);
    if (turn) await this.send(turn.turn.prompt);
  }

  async answer(questionId: string, answer: AnswerQuestionRequest): Promise<void> {
    await this.client.answer(questionId, answer);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionSnapshot => this.snapshot;

  /** Every live event of the session, for other views of it (the kernel panel): one subscription serves all. */
  listen = (listener: (event: CairnEvent) => void): (() => void) => {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  };

  dispose(): void {
    this.disposed = true;
    this.unsubscribe?.();
    this.listeners.clear();
    this.eventListeners.clear();
  }

  private onEvent(event: CairnEvent): void {
    for (const listener of this.eventListeners) listener(event);
    const forks =
      event.type === 'fork.updated' ? { forks: upsertFork(this.snapshot.forks, event.fork) } : undefined;
    if (event.type === 'files.reverted') {
      void this.addRevert(event);
      return;
    }
    const turns = this.snapshot.turns;
    // "Compact now" runs between turns: its card goes after the last turn, where it happened.
    const between = event.turn_id === null && (isContextEvent(event) || event.type === 'context.edited');
    // A fork's news belongs to the turn that spawned it, whatever turn the event is filed under.
    const turnId = event.type === 'fork.updated' ? event.fork.turn_id : event.turn_id;
    const index = between ? turns.length - 1 : turns.findIndex((t) => t.turn.id === turnId);
    if (index === -1) {
      if (event.type === 'turn.started') this.update({ turns: [...turns, turnFromStart(event)] });
      else if (forks) this.update(forks);
      return;
    }
    const next = turns.slice();
    next[index] = applyEvent(turns[index]!, event);
    this.update({ turns: next, ...forks });
    if (TURN_ENDS.has(event.type) && event.turn_id) void this.readEnded(event.turn_id);
  }

  /**
   * A turn that just ended, read again for what its events do not carry: its estimated cost (the events
   * carry tokens, not prices) and what was recorded of its files (as it ends, not in its events).
   */
  private async readEnded(turnId: string): Promise<void> {
    let read: Turn;
    try {
      read = await this.client.getTurn(turnId);
    } catch {
      return; // Both show when the session is next read; the turn itself is complete already.
    }
    const index = this.snapshot.turns.findIndex((t) => t.turn.id === turnId);
    if (this.disposed || index === -1) return;
    const next = this.snapshot.turns.slice();
    const view = next[index]!;
    const { cost, files_changed, files_recorded, files_note } = read;
    const fresh = { cost, files_changed, files_recorded, files_note };
    const keys = Object.keys(fresh) as (keyof typeof fresh)[];
    if (keys.every((key) => view.turn[key] === fresh[key])) return;
    next[index] = { ...view, turn: { ...view.turn, ...fresh } };
    this.update({ turns: next });
  }

  /** The revert turns being read: a second delivery of their `files.reverted` adds nothing. */
  private readonly revertsReading = new Set<string>();

  /**
   * A revert ran (from this window or another): its turn, which has no events of its own, is read and placed
   * by its ordinal (a later turn may have started meanwhile), with the files it could not put back. A page
   * read since may have brought it already.
   */
  private async addRevert(event: Extract<CairnEvent, { type: 'files.reverted' }>): Promise<void> {
    const turnId = event.turn_id;
    if (!turnId || this.revertsReading.has(turnId)) return;
    this.revertsReading.add(turnId);
    let turn: Turn;
    try {
      turn = await this.client.getTurn(turnId);
    } catch (error) {
      this.update({ error: messageOf(error) });
      return;
    } finally {
      this.revertsReading.delete(turnId);
    }
    if (this.disposed) return;
    const turns = this.snapshot.turns.filter((t) => t.turn.id !== turnId);
    const at = turns.findIndex((t) => t.turn.ordinal > turn.ordinal);
    turns.splice(at === -1 ? turns.length : at, 0, turnFromTurn(turn));
    this.update({ turns });
  }

  private update(patch: Partial<SessionSnapshot>): void {
    const merged = { ...this.snapshot, ...patch };
    const last = merged.turns.at(-1);
    merged.running = last && last.turn.status === 'running' ? last : null;
    this.snapshot = merged;
    for (const listener of this.listeners) listener();
  }
}

/** Each turn with its forks group; the forks read with the page win over those rebuilt from events. */
function attachForks(turns: TurnView[], forks: readonly ForkInfo[]): TurnView[] {
  const byTurn = forksByTurn(forks);
  return turns.map((view) => {
    const own = byTurn.get(view.turn.id);
    return own ? withForks(view, own) : view;
  });
}

function rebuild(events: CairnEvent[]): TurnView | null {
  const start = events.find(
    (e): e is Extract<CairnEvent, { type: 'turn.started' }> => e.type === 'turn.started',
  );
  if (!start) return null;
  return events.reduce((view, event) => applyEvent(view, event), turnFromStart(start));
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
