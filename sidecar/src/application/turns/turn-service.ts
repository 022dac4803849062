import type { AgentRuntime } from '../../agent/agent-runtime';
import { CairnError, notFound } from '../../errors';
import type {
  EventList,
  ListEventsQuery,
  ListTurnsQuery,
  StartTurnRequest,
  Turn,
  TurnPage,
} from '../../protocol';
import type { Store } from '../../store/store';
import { DEFAULT_SESSION_TITLE, titleFromPrompt } from '../sessions/session-title';
import { listTurnPage } from './turn-history';

/** A session's turns: started (idempotent by request_id), read page by page, cancelled, and their events. */
export class TurnService {
  constructor(private readonly deps: { store: Store; runtime: AgentRuntime }) {}

  /** Starts a turn, or returns the one this request_id already started. */
  start(sessionId: string, request: StartTurnRequest): Turn {
    const { store, runtime } = this.deps;
    const parent = store.sessions.get(sessionId)?.parent_session_id;
    if (parent) {
      throw new CairnError(
        'conflict',
        `Session ${sessionId} is a fork. A fork runs only its task; it is read-only: continue in its parent session ${parent}.`,
      );
    }
    const { turn, created } = runtime.startTurn(sessionId, request.prompt, request.request_id);
    // A session still called by its default name takes its title from the first prompt.
    if (created && turn.ordinal === 1 && store.sessions.get(sessionId)?.title === DEFAULT_SESSION_TITLE) {
      store.sessions.update(sessionId, { title: titleFromPrompt(request.prompt) });
    }
    return turn;
  }

  page(sessionId: string, query: ListTurnsQuery): TurnPage {
    this.requireSession(sessionId);
    return listTurnPage(this.deps.store, sessionId, query.limit, query.before);
  }

  get(turnId: string): Turn {
    const turn = this.deps.store.turns.get(turnId);
    if (!turn) throw notFound('Turn', turnId);
    return turn;
  }

  /** Cancels a running turn and resolves once its model stream and processes have stopped. */
  cancel(turnId: string): Promise<Turn> {
    return this.deps.runtime.cancelTurn(turnId);
  }

  /** Resolves when the turn is no longer running in this process. */
  waitFor(turnId: string): Promise<Turn | null> {
    return this.deps.runtime.waitForTurn(turnId);
  }

  /** The session's journal: one turn's events, or a page after a sequence number (optionally by type). */
  events(sessionId: string, query: ListEventsQuery): EventList {
    this.requireSession(sessionId);
    const { events } = this.deps.store;
    const prefix = query.type_prefix;
    if (query.turn_id !== undefined) {
      const list = events.forTurn(sessionId, query.turn_id);
      return {
        events: prefix === undefined ? list : list.filter((e) => e.type.startsWith(prefix)),
        has_more: false,
      };
    }
    // One extra row tells whether the client should ask again from the last seq it got.
    const page = events.after(sessionId, query.after, query.limit + 1, prefix);
    return { events: page.slice(0, query.limit), has_more: page.length > query.limit };
  }

  private requireSession(id: string): void {
    if (!this.deps.store.sessions.get(id)) throw notFound('Session', id);
  }
}
