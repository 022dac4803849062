import type { CairnEvent, NewEvent } from '../../../sidecar/src/protocol';

/** Journal events as the sidecar writes them for one session: seq counting up from 1, a second apart. */
export function eventMaker(sessionId: string): (e: NewEvent) => CairnEvent {
  let seq = 0;
  return (e) => {
    seq += 1;
    return { ...e, seq, session_id: sessionId, time: new Date(1000 * seq).toISOString() } as CairnEvent;
  };
}
