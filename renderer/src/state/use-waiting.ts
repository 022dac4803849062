import { useMemo, useSyncExternalStore } from 'react';
import type { Question } from '../../../sidecar/src/protocol';
import type { WaitingController, WaitingSnapshot } from './waiting-controller';
import { callsAwaitingApproval, waitingOutside } from './waiting-view';

export interface Waiting {
  /** The pending questions outside the running turn (all of them between turns), oldest first. */
  questions: Question[];
  /** The background calls one of whose script's calls waits for one of those approvals. */
  awaiting: Set<string>;
  error: string | null;
}

const noSubscribe = () => () => {};
const NOTHING: WaitingSnapshot = { view: null, error: null };
const nothing = () => NOTHING;

/** What waits on the user outside the running turn, live; nothing without a controller. */
export function useWaiting(controller: WaitingController | null): Waiting {
  const { view, error } = useSyncExternalStore(
    controller?.subscribe ?? noSubscribe,
    controller?.getSnapshot ?? nothing,
  );
  return useMemo(
    () => ({ questions: waitingOutside(view), awaiting: callsAwaitingApproval(view), error }),
    [view, error],
  );
}
