import type { TurnWithDetails } from '../../protocol';
import type { Store } from '../../store/store';
import { versionInfos } from '../context/version-info';

/** One page of a session's turns with their messages and tool calls. */
export function listTurnPage(
  store: Store,
  sessionId: string,
  limit: number,
  before?: number,
): { turns: TurnWithDetails[]; next_before: number | null; last_seq: number } {
  // Read synchronously with the page, so the journal position matches what the page shows.
  const lastSeq = store.events.lastSeq(sessionId);
  const page = store.turns.page(sessionId, limit, before);
  const ids = page.turns.map((t) => t.id);
  const messages = store.messages.forTurns(ids);
  const toolCalls = store.toolCalls.forTurns(ids);
  const questions = store.questions.forTurns(ids);
  const compactions = store.contextVersions.forTurns(ids);
  const written = [...compactions.values()].flat();
  const infoOf = new Map(versionInfos(store, written).map((info, i) => [written[i]!.id, info]));
  return {
    turns: page.turns.map((turn) => ({
      ...turn,
      messages: messages.get(turn.id) ?? [],
      tool_calls: toolCalls.get(turn.id) ?? [],
      questions: questions.get(turn.id) ?? [],
      compactions: (compactions.get(turn.id) ?? []).map((v) => infoOf.get(v.id)!),
    })),
    next_before: page.nextBefore,
    last_seq: lastSeq,
  };
}
