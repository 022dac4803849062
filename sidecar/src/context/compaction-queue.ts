import type { CompactionLevel, StructuredSummary } from '../protocol';

/** A compaction the agent asked for: applied after the whole batch of tool results, before the next request. */
export interface QueuedCompaction {
  level: CompactionLevel | 'auto';
  ref?: string;
  given?: StructuredSummary;
}

/** The agent's queued compactions per session (in memory; the runtime drops them when their turn ends). */
export class CompactionQueue {
  private readonly queued = new Map<string, QueuedCompaction[]>();

  add(sessionId: string, compaction: QueuedCompaction): number {
    const list = this.queued.get(sessionId) ?? [];
    list.push(compaction);
    this.queued.set(sessionId, list);
    return list.length;
  }

  pending(sessionId: string): boolean {
    return (this.queued.get(sessionId)?.length ?? 0) > 0;
  }

  take(sessionId: string): QueuedCompaction[] {
    const list = this.queued.get(sessionId) ?? [];
    this.queued.delete(sessionId);
    return list;
  }
}
