import type { CairnEvent } from '../../protocol';
import type { Store } from '../../store/store';

/**
 * The journal as its readers see it (the WebSocket hub, a local `cairn run`): every event as it is stored,
 * and a session's events after a sequence number. Reading only; events are written by what they describe.
 */
export class EventFeed {
  constructor(private readonly store: Store) {}

  /** Calls `listener` with each event after it is stored; returns the unsubscribe. */
  subscribe(listener: (event: CairnEvent) => void): () => void {
    return this.store.events.subscribe(listener);
  }

  after(sessionId: string, afterSeq: number, limit?: number): CairnEvent[] {
    return this.store.events.after(sessionId, afterSeq, limit);
  }

  lastSeq(sessionId: string): number {
    return this.store.events.lastSeq(sessionId);
  }

  sessionExists(sessionId: string): boolean {
    return this.store.sessions.get(sessionId) !== null;
  }
}
