import { z } from 'zod';
import type { Store } from '../store/store';
import { type ContextView, viewTokens } from './context-view';

/** What Cairn keeps of a session's last model request, to know the next one's size. */
const LastRequest = z.object({
  version: z.number().int(),
  last_message_id: z.number().int().nullable(),
  /** What the API counted: input, cache reads and cache writes. */
  input_tokens: z.number().int(),
  /** Cairn's own estimate of the same request. */
  estimated_tokens: z.number().int(),
  /** The estimate of its system prompt, tools and experiences. */
  overhead_tokens: z.number().int(),
});
export type LastRequest = z.infer<typeof LastRequest>;

export interface RequestSize {
  tokens: number;
  /** False when the size rests on the API's count of the last request (what was added since is estimated). */
  estimated: boolean;
  /** The API's tokens per estimated token (from the last request; 1 without one). */
  scale: number;
  overhead: number;
}

export function lastRequestOf(store: Store, sessionId: string): LastRequest | null {
  const parsed = LastRequest.safeParse(store.sessions.lastRequest(sessionId));
  return parsed.success ? parsed.data : null;
}

/**
 * The next request's size: the API's count for the last request plus an estimate of the messages added
 * since, while the context version is the same; after a compaction, the estimate calibrated by the last count.
 */
export function nextRequestSize(
  store: Store,
  sessionId: string,
  view: ContextView,
  overhead?: number,
): RequestSize {
  const last = lastRequestOf(store, sessionId);
  // Before a session's first request its system prompt and tools are not measured yet: a neighbour's are
  // the conservative guess (the same project's first), rather than nothing.
  const own = overhead ?? last?.overhead_tokens ?? neighbourOverhead(store, sessionId);
  const estimate = own + viewTokens(view);
  // Clamped: one odd count (an empty request, a proxy) must not make every estimate absurd.
  const scale =
    last && last.estimated_tokens > 0 ? clamp(last.input_tokens / last.estimated_tokens, 0.25, 4) : 1;
  if (last && last.version === view.state.number && last.last_message_id !== null) {
    let added = own - last.overhead_tokens;
    for (const item of view.items) {
      if (item.kind === 'message' && item.message.id > last.last_message_id) added += item.tokens;
    }
    return { tokens: last.input_tokens + Math.max(0, added), estimated: false, scale, overhead: own };
  }
  return { tokens: Math.ceil(estimate * scale), estimated: true, scale, overhead: own };
}

function neighbourOverhead(store: Store, sessionId: string): number {
  const parsed = LastRequest.safeParse(store.sessions.neighbourLastRequest(sessionId));
  return parsed.success ? parsed.data.overhead_tokens : 0;
}

export function recordRequest(store: Store, sessionId: string, value: LastRequest): void {
  store.sessions.setLastRequest(sessionId, value);
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
