import { useCallback, useRef } from 'react';
import type { TurnView } from './turn-view';

/**
 * The virtualizer's getItemKey for `turns`, the same function for as long as the turns' ids are the same
 * in the same order. A new function makes the virtualizer lay out every row again (2,000 in a long
 * session), and a streamed delta or a scroll step renders with a new turns array but the same ids.
 */
export function useTurnKeys(turns: readonly TurnView[]): (index: number) => string | number {
  const ids = useRef<string[]>([]);
  const same =
    ids.current.length === turns.length && turns.every((view, i) => view.turn.id === ids.current[i]);
  if (!same) ids.current = turns.map((view) => view.turn.id);
  const current = ids.current;
  return useCallback((index: number) => current[index] ?? index, [current]);
}
