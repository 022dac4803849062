import type { ContextVersion } from '../store/context-versions-repo';
import type { Store } from '../store/store';
import { type ContextCut, type ContextState, type EditedMessage, stateOf } from './context-state';
import { buildView, viewTokens } from './context-view';
import type { PendingMemory } from './memory-edits';
import { nextRequestSize } from './request-size';

/** Stands first when the edit left no user message there: the API wants the conversation to begin with one. */
export const EDIT_START =
  '[The earlier conversation was removed by your own memory edit (runtime.selfref.memory).]';

export type MemoryWriteOutcome =
  | { kind: 'written'; version: ContextVersion }
  /** Only reads, or edits that left everything as it was. */
  | { kind: 'unchanged' }
  /** Another version was written since the snapshot: the edit was made against a context that is gone. */
  | { kind: 'stale'; snapshot: number; head: number };

/**
 * Writes the agent's memory edits as one context version (reason `agent_edit`): the edited messages stand
 * for everything before the round that was in flight, which stays after them with its results. The raw
 * history is not touched. A change of the system prompt addition alone keeps the rest of HEAD as it is.
 */
export function writeMemoryEdit(
  store: Store,
  pending: PendingMemory,
  turnId: string | null,
): MemoryWriteOutcome {
  const { sessionId, snapshot } = pending;
  const head = store.contextVersions.head(sessionId);
  const state = stateOf(head);
  if (state.number !== snapshot.version)
    return { kind: 'stale', snapshot: snapshot.version, head: state.number };
  const messagesChanged = JSON.stringify(pending.messages) !== JSON.stringify(snapshot.messages);
  const addition = pending.systemAddition?.trim() ? pending.systemAddition : null;
  const current = state.systemAddition?.trim() ? state.systemAddition : null;
  if (!messagesChanged && addition === current) return { kind: 'unchanged' };

  let next: ContextState = { ...state, systemAddition: addition };
  if (messagesChanged) {
    const first = snapshot.frontierMessageId ?? (snapshot.newestMessageId ?? 0) + 1;
    next = {
      ...next,
      firstMessageId: first,
      // The working copy holds the summary and the kept messages already, as the model read them.
      summary: null,
      kept: [],
      cuts: state.cuts.filter((cut) => cutStart(cut) >= first),
      edited: startingWithUser(pending.messages),
    };
  }
  const before = buildView(store, sessionId, state);
  const size = nextRequestSize(store, sessionId, before);
  const after = Math.ceil((size.overhead + viewTokens(buildView(store, sessionId, next))) * size.scale);
  return store.transaction(() => {
    const version = store.contextVersions.create({
      sessionId,
      parentId: head?.id ?? null,
      reason: 'agent_edit',
      level: null,
      turnId,
      tokensBefore: size.tokens,
      tokensAfter: after,
      firstMessageId: next.firstMessageId,
      summary: next.summary ? JSON.stringify(next.summary) : null,
      cuts: next.cuts,
      keptMessageIds: next.kept,
      uptoMessageId: store.messages.last(sessionId)?.id ?? null,
      edited: next.edited,
      systemAddition: next.systemAddition,
    });
    store.events.append(sessionId, {
      type: 'context.edited',
      turn_id: turnId,
      version: version.number,
      messages: next.edited?.length ?? 0,
      system_prompt_addition: next.systemAddition,
    });
    return { kind: 'written' as const, version };
  });
}

function startingWithUser(messages: EditedMessage[]): EditedMessage[] {
  if (messages[0]?.role === 'user') return messages;
  return [{ role: 'user', content: [{ type: 'text', text: EDIT_START }] }, ...messages];
}

const cutStart = (cut: ContextCut) => (cut.kind === 'block' ? cut.message_id : cut.from_message_id);
