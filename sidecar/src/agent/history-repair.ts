import type { ContentBlock } from '../protocol';
import type { Store } from '../store/store';

/**
 * Gives every tool_use in the session's last assistant message a tool_result, so history stays
 * valid for the next request after a cancel, failure or crash. Returns how many were closed.
 */
export function closeDanglingToolUses(
  store: Store,
  sessionId: string,
  turnId: string | null,
  text: string | ((toolUseId: string) => string),
): number {
  const last = store.messages.last(sessionId);
  if (last?.role !== 'assistant') return 0;
  const ids = last.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
  if (ids.length === 0) return 0;
  const content: ContentBlock[] = ids.map((id) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: typeof text === 'string' ? text : text(id),
    is_error: true,
  }));
  store.messages.append({ sessionId, turnId, role: 'user', content, internal: true });
  return ids.length;
}
