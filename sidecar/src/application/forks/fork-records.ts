import type { ForkInfo, ForkStatus, Session, Turn } from '../../protocol';
import type { Store } from '../../store/store';
import { forkRequestId } from './fork-prompt';

/** What this process knows of a fork its store does not: that it waits in a queue, or could not start. */
export interface LiveForkState {
  queued: boolean;
  startError: string | null;
}

export interface ForkState {
  status: ForkStatus;
  /** Its final reply's text once completed; the error's message once failed; null otherwise. */
  response: string | null;
}

/** The fork's one turn, once it started. */
export function forkTurn(store: Store, forkId: string): Turn | null {
  return store.turns.byRequestId(forkId, forkRequestId(forkId));
}

/**
 * A fork's status is its turn's. Without a turn it waits in this process's queue, or could not start; a
 * fork neither (cancelled while queued, or Cairn stopped before it started) is cancelled.
 */
export function forkState(store: Store, forkId: string, live: LiveForkState | null): ForkState {
  const turn = forkTurn(store, forkId);
  if (turn) {
    if (turn.status === 'completed') return { status: 'completed', response: finalReply(store, turn.id) };
    if (turn.status === 'failed') return { status: 'failed', response: turn.error?.message ?? null };
    return { status: turn.status, response: null };
  }
  if (live?.queued) return { status: 'queued', response: null };
  if (live?.startError) return { status: 'failed', response: live.startError };
  return { status: 'cancelled', response: null };
}

export function forkInfo(store: Store, fork: Session, state: ForkState): ForkInfo {
  return {
    fork_id: fork.id,
    turn_id: fork.parent_turn_id ?? '',
    task: store.sessions.forkOrigin(fork.id)?.task ?? '',
    status: state.status,
    response: state.response,
    created_at: fork.created_at,
  };
}

/** The messages of the fork's own turn (not the parent's context it started from), as the model saw them. */
export function forkHistory(
  store: Store,
  forkId: string,
): { role: 'user' | 'assistant'; content: unknown }[] {
  const turn = forkTurn(store, forkId);
  if (!turn) return [];
  return (store.messages.forTurns([turn.id]).get(turn.id) ?? []).map((m) => ({
    role: m.role,
    content: m.content,
  }));
}

/** The text of the turn's last reply. */
function finalReply(store: Store, turnId: string): string | null {
  const messages = store.messages.forTurns([turnId]).get(turnId) ?? [];
  const last = messages.filter((m) => m.role === 'assistant').at(-1);
  if (!last) return null;
  return last.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}
