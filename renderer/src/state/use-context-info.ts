import { useEffect } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { EventSource } from './session-controller';
import { useAsync } from './use-async';

// The next request's size changes when a message or tool result is written, when a compaction
// lands, when a turn starts or ends, when the agent edits its context or its system prompt addition, and
// when the experiences in the system prompt change.
const CHANGES_SIZE = new Set<string>([
  'turn.started',
  'turn.completed',
  'turn.failed',
  'turn.cancelled',
  'turn.interrupted',
  'message.completed',
  'tool.finished',
  'context.compacted',
  'context.edited',
  'experience.added',
  'experience.updated',
  'experience.removed',
]);

const REFRESH_DELAY_MS = 250;

/**
 * The session's context (GET …/context), read again whenever something changed its size. Read first once
 * `events` is given: the conversation passes it when its turns have loaded, so it is parsed after the
 * turns are shown. `units: false` reads the size alone: the meter's need, where the units of a long
 * session (thousands) would cost a parse on every change; the side panel's context section asks for them.
 */
export function useContextInfo(
  client: CairnClient,
  sessionId: string,
  events: EventSource | null,
  options: { units: boolean },
) {
  const started = events !== null;
  const { units } = options;
  const state = useAsync(started ? () => client.context(sessionId, { units }) : null, [
    client,
    sessionId,
    started,
    units,
  ]);
  const { reload } = state;
  useEffect(() => {
    if (!events) return;
    // A tool loop sends these by the dozen: one read a moment after the first of a burst covers them all.
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = events.listen((event) => {
      if (!CHANGES_SIZE.has(event.type) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        reload();
      }, REFRESH_DELAY_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [events, reload]);
  return state;
}
