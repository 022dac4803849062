import type { Store } from '../store/store';
import type { ContextState, EditedMessage } from './context-state';
import { buildView, type ContextView, viewMessages } from './context-view';

/** What the agent's memory handle and a fork's start see: HEAD's messages before the round in flight. */
export interface WorkingHistory {
  state: ContextState;
  /** The messages as the model saw them in its latest request (summaries and stubs as they stand). */
  messages: EditedMessage[];
  /**
   * The assistant message whose tool calls run now (their results are not written yet): it and what
   * follows stay as they are. Null when no round is in flight.
   */
  frontierMessageId: number | null;
}

/**
 * The session's working history: HEAD's view up to the request whose tool calls are running. That
 * request's own reply is left out, so an edit (or a fork) never splits a tool call from its result.
 */
export function workingHistory(store: Store, sessionId: string): WorkingHistory {
  const view = buildView(store, sessionId);
  const last = view.items.at(-1);
  const inFlight =
    last?.kind === 'message' &&
    last.message.role === 'assistant' &&
    last.content.some((block) => block.type === 'tool_use');
  const before: ContextView = { state: view.state, items: inFlight ? view.items.slice(0, -1) : view.items };
  return {
    state: view.state,
    messages: viewMessages(before).map((m) => structuredClone(m)),
    frontierMessageId: inFlight && last.kind === 'message' ? last.message.id : null,
  };
}
