import type { ContentBlock, Message } from '../protocol';
import type { Store } from '../store/store';

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/**
 * The messages to send for a session: its context HEAD (a summary, if compaction left one, then the
 * history it keeps). Consecutive messages of one role are merged, since the API wants them to
 * alternate and Cairn's own instructions can follow a user message.
 */
export function buildContextMessages(store: Store, sessionId: string): ModelMessage[] {
  const head = store.contextVersions.head(sessionId);
  const history = store.messages.fromId(sessionId, head?.first_message_id ?? null);
  const result: ModelMessage[] = [];
  if (head?.summary) {
    result.push({
      role: 'user',
      content: [{ type: 'text', text: `Summary of the earlier conversation:\n${head.summary}` }],
    });
  }
  for (const message of history) appendMerged(result, message);
  return result;
}

function appendMerged(list: ModelMessage[], message: Message): void {
  const last = list.at(-1);
  if (last && last.role === message.role) {
    // tool_result blocks must come first in a user message, so results go before added text.
    const merged = [...last.content, ...message.content];
    merged.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
    last.content = merged;
    return;
  }
  list.push({ role: message.role, content: [...message.content] });
}
