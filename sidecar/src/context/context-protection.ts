import type { ContextView, ViewItem } from './context-view';

type MessageItem = Extract<ViewItem, { kind: 'message' }>;

/** A run of the context that compacts as one: a round (the model's call and its results) or a message. */
export interface Segment {
  items: ViewItem[];
  /** A model↔tools round: an assistant message with tool calls, and the results that answered them. */
  round: boolean;
  turnId: string | null;
  tokens: number;
}

/** What no automatic compaction may touch, and where the protected tail begins. */
export interface Protection {
  ids: Set<number>;
  /** The user's latest message. */
  promptId: number | null;
  /** The turn that message began (its earlier rounds may be compacted, the turn itself not). */
  currentTurnId: string | null;
  /** Index in the segments of the first protected one (the tail, or the current round). */
  tailSegment: number;
}

/** Protected rounds before the current one, for automatic compaction; fewer when they are large. */
export const TAIL_ROUNDS = 2;

/** The most of the usable window the protected tail may take, in estimated tokens (`scale`: API tokens per estimated one). */
export function tailBudget(usable: number, scale: number): number {
  return (usable * 0.25) / scale;
}

/** The context in segments: each message with the results and notes that follow it, each summary alone. */
export function segmentsOf(view: ContextView): Segment[] {
  const segments: Segment[] = [];
  for (const item of view.items) {
    const last = segments.at(-1);
    if (item.kind === 'message' && last && attaches(item, last)) {
      last.items.push(item);
      last.tokens += item.tokens;
      continue;
    }
    const round =
      item.kind === 'message' &&
      item.message.role === 'assistant' &&
      item.content.some((b) => b.type === 'tool_use');
    segments.push({
      items: [item],
      round,
      turnId:
        item.kind === 'message' ? item.message.turn_id : item.kind === 'range' ? item.cut.turn_id : null,
      tokens: item.tokens,
    });
  }
  return segments;
}

/** Tool results and Cairn's own notes belong to the message before them. */
function attaches(item: MessageItem, to: Segment): boolean {
  if (to.items[0]!.kind !== 'message' || item.message.role !== 'user') return false;
  return item.message.internal || item.content.some((b) => b.type === 'tool_result');
}

/**
 * The latest user message and the current round always; for automatic compaction also the previous
 * rounds up to TAIL_ROUNDS, as long as they fit in `tailTokens` (one huge round leaves room for nothing).
 */
export function protect(
  view: ContextView,
  segments: Segment[],
  options: { explicit: boolean; tailTokens: number },
) {
  const messages = view.items.filter((i): i is MessageItem => i.kind === 'message');
  const prompt = messages.findLast(
    (m) =>
      m.message.role === 'user' && !m.message.internal && !m.content.some((b) => b.type === 'tool_result'),
  );
  const ids = new Set<number>();
  if (prompt) ids.add(prompt.message.id);
  let tail = segments.length;
  if (segments.length > 0) {
    tail = segments.length - 1;
    let rounds = 0;
    let tokens = segments[tail]!.tokens;
    while (!options.explicit && tail > 0 && rounds < TAIL_ROUNDS) {
      const previous = segments[tail - 1]!;
      if (previous.items[0]!.kind !== 'message' || tokens + previous.tokens > options.tailTokens) break;
      tokens += previous.tokens;
      tail -= 1;
      if (previous.round) rounds += 1;
    }
  }
  for (const segment of segments.slice(tail)) {
    for (const item of segment.items) if (item.kind === 'message') ids.add(item.message.id);
  }
  const protection: Protection = {
    ids,
    promptId: prompt?.message.id ?? null,
    currentTurnId: prompt?.message.turn_id ?? null,
    tailSegment: tail,
  };
  return protection;
}
