import type { Store } from '../store/store';
import { buildView, type ModelMessage, viewMessages } from './context-view';

export type { ModelMessage } from './context-view';

/** The messages to send for a session: its context HEAD (summaries and stubs where it was compacted). */
export function buildContextMessages(store: Store, sessionId: string): ModelMessage[] {
  return viewMessages(buildView(store, sessionId));
}
