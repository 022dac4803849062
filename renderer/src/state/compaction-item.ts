import type {
  CairnEvent,
  CompactionLevel,
  CompactionReason,
  ContextVersionInfo,
  ErrorInfo,
  StructuredSummary,
} from '../../../sidecar/src/protocol';

/** A compaction where it happened in the conversation: running, done (with its version), or failed. */
export interface CompactionItem {
  kind: 'compaction';
  key: string;
  state: 'running' | 'done' | 'failed';
  level: CompactionLevel | null;
  reason: CompactionReason | string;
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The version it wrote, and the one it replaced (what the model saw before it). */
  version: number | null;
  parent: number | null;
  summary: StructuredSummary | null;
  error: ErrorInfo | null;
}

type ContextEvent = Extract<
  CairnEvent,
  { type: 'context.compaction_started' | 'context.compacted' | 'context.compaction_failed' }
>;

export const isContextEvent = (event: CairnEvent): event is ContextEvent =>
  event.type === 'context.compaction_started' ||
  event.type === 'context.compacted' ||
  event.type === 'context.compaction_failed';

/** A stored version as the conversation shows it. */
export function compactionFromVersion(version: ContextVersionInfo): CompactionItem {
  return {
    kind: 'compaction',
    key: `compaction-v${version.number}`,
    state: 'done',
    level: version.level,
    reason: version.reason,
    tokensBefore: version.tokens_before,
    tokensAfter: version.tokens_after,
    version: version.number,
    parent: version.parent,
    summary: version.summary,
    error: null,
  };
}

/**
 * Applies a live compaction event to a turn's items: a start adds a running card, and the end (done or
 * failed) settles the newest running one, or stands alone when its start was not seen.
 */
export function applyCompactionEvent<T extends { kind: string }>(
  items: readonly (T | CompactionItem)[],
  event: ContextEvent,
): (T | CompactionItem)[] {
  if (event.type === 'context.compaction_started') {
    const started: CompactionItem = {
      kind: 'compaction',
      key: `compaction-${event.seq}`,
      state: 'running',
      level: event.level,
      reason: event.reason,
      tokensBefore: event.tokens_before,
      tokensAfter: null,
      version: null,
      parent: null,
      summary: null,
      error: null,
    };
    return [...items, started];
  }
  const index = items.findLastIndex(
    (i) => i.kind === 'compaction' && (i as CompactionItem).state === 'running',
  );
  const running = index === -1 ? null : (items[index] as CompactionItem);
  const settled: CompactionItem =
    event.type === 'context.compacted'
      ? {
          kind: 'compaction',
          key: running?.key ?? `compaction-${event.seq}`,
          state: 'done',
          level: event.level,
          reason: event.reason,
          tokensBefore: event.tokens_before,
          tokensAfter: event.tokens_after,
          version: event.version,
          // HEAD moves one version at a time, so the one it replaced is the one before it.
          parent: event.version - 1,
          summary: event.summary,
          error: null,
        }
      : {
          kind: 'compaction',
          key: running?.key ?? `compaction-${event.seq}`,
          state: 'failed',
          level: event.level ?? running?.level ?? null,
          reason: event.reason,
          tokensBefore: running?.tokensBefore ?? null,
          tokensAfter: null,
          version: null,
          parent: null,
          summary: null,
          error: event.error,
        };
  if (index === -1) return [...items, settled];
  const next = items.slice();
  next[index] = settled;
  return next;
}

/** A running compaction card of an ended turn did not finish: it was cancelled with the turn. */
export function settleCompaction(item: CompactionItem, error: ErrorInfo): CompactionItem {
  return item.state === 'running' ? { ...item, state: 'failed', error } : item;
}
