import type { ContentBlock } from '../protocol';
import type { ModelMessage } from './context-builder';

/** Where a request's conversation ended: the message and block that carried its moving breakpoint. */
export interface ConversationEnd {
  message: number;
  block: number;
}

export interface CachedRequestParts<Tool> {
  system: { type: 'text'; text: string; cache_control: { type: 'ephemeral' } }[];
  tools: Tool[];
  messages: ModelMessage[];
  /** Pass to the next request of the loop, so its prefix up to here is read from the cache. */
  end: ConversationEnd | null;
}

const EPHEMERAL = { type: 'ephemeral' } as const;
// Blocks the API refuses to mark (thinking) or that carry nothing to cache.
const UNMARKABLE = new Set(['thinking', 'redacted_thinking']);

/**
 * Puts `cache_control` breakpoints where the Messages API rewards them, within its limit of four: the end
 * of the tools, the system prompt, the end of the conversation, and where the previous request of the loop
 * ended (the API looks back only 20 blocks from a breakpoint, and one round can add more). The context is
 * append-only between compactions, so every request's prefix up to the previous end is byte-identical to
 * the previous request; only the marks move. Nothing given is mutated: marked blocks are copies.
 */
export function withCacheBreakpoints<Tool extends object>(
  systemPrompt: string,
  tools: Tool[],
  messages: ModelMessage[],
  previousEnd: ConversationEnd | null,
): CachedRequestParts<Tool> {
  const marked = tools.map((tool, i) =>
    i === tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool,
  );
  const copy = messages.map((m) => ({ role: m.role, content: [...m.content] }));
  const end = lastMarkable(copy);
  const mark = (at: ConversationEnd | null): void => {
    const block = at && copy[at.message]?.content[at.block];
    if (at && block && !UNMARKABLE.has(block.type)) {
      copy[at.message]!.content[at.block] = { ...block, cache_control: EPHEMERAL } as ContentBlock;
    }
  };
  mark(end);
  if (previousEnd && (previousEnd.message !== end?.message || previousEnd.block !== end.block))
    mark(previousEnd);
  return {
    system: [{ type: 'text', text: systemPrompt, cache_control: EPHEMERAL }],
    tools: marked,
    messages: copy,
    end,
  };
}

/** The last block a breakpoint can go on: thinking blocks cannot carry one, empty text cannot be cached. */
function lastMarkable(messages: ModelMessage[]): ConversationEnd | null {
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = messages[m]!.content;
    for (let b = content.length - 1; b >= 0; b--) {
      const block = content[b]!;
      if (UNMARKABLE.has(block.type)) continue;
      if (block.type === 'text' && !(block as { text?: string }).text) continue;
      return { message: m, block: b };
    }
  }
  return null;
}
