import { useEffect } from 'react';
import type { CairnEvent } from '../../../sidecar/src/protocol';
import type { CairnClient } from '../api/http-client';
import { useAsync } from './use-async';

/** Where a session's live events come from (SessionController.listen). */
export type SessionEvents = { listen(listener: (event: CairnEvent) => void): () => void };

// The next request's size changes when a message or tool result is written, when a compaction
// lands, when a turn starts or ends, and when the experiences in the system prompt change.
const CHANGES_SIZE = new Set<string>([
  'turn.started',
  'turn.completed',
  'turn.failed',
  'turn.cancelled',
  'turn.interrupted',
  'message.completed',
  'tool.finished',
  'context.compacted',
  'experience.added',
  'experience.updated',
  'experience.removed',
]);

/** The session's context (GET …/context), read again whenever something changed its size. */
export function useContextInfo(client: CairnClient, sessionId: string, events: SessionEvents | null) {
  const state = useAsync(() => client.context(sessionId), [client, sessionId]);
  const { reload } = state;
  useEffect(() => {
    if (!events) return;
    return events.listen((event) => {
      if (CHANGES_SIZE.has(event.type)) reload();
    });
  }, [events, reload]);
  return state;
}
