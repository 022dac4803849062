import type { CairnClient } from '../../../../sidecar/src/client';
import type { ToolCardState } from '../../state/tool-items';
import { isFinished } from '../tool-labels';
import type { CallResult } from './use-call-result';

/** What every card's body gets: the call as the turn shows it, its whole result once loaded, the client. */
export interface CallBodyProps {
  card: ToolCardState;
  result: CallResult;
  /** Loads the whole result again after it failed to load. */
  retry(): void;
  client: CairnClient;
}

/**
 * The best text of a call's result the card has: the whole result once loaded, else the stored preview of
 * an ended call, else the live output of a running one.
 */
export function resultText(card: ToolCardState, result: CallResult): string {
  if (result.state === 'loaded' && result.call.result !== null) return result.call.result;
  if (isFinished(card.status)) return card.preview ?? card.output;
  return card.output;
}

/** Whether the text is all there is (the whole result, or the live output), not a preview of more. */
export function resultComplete(card: ToolCardState, result: CallResult): boolean {
  if (!isFinished(card.status)) return true;
  return result.state === 'loaded' && result.call.result !== null;
}
