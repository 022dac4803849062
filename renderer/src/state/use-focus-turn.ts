import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';
import type { SessionController, SessionSnapshot } from './session-controller';

/** A request to show one turn of the open session; a new nonce asks again for the same turn. */
export interface FocusTurn {
  turnId: string;
  nonce: number;
}

/** How long a turn that was jumped to stays highlighted. */
const HIGHLIGHT_MS = 2400;

/**
 * Brings a turn into view (a search hit, a "Branched from" link): pages it in when it is older than what is
 * loaded, scrolls the list to it once it is rendered, stops following the stream, and highlights it briefly.
 * Returns the highlighted turn's id.
 */
export function useFocusTurn(
  controller: SessionController | null,
  snapshot: SessionSnapshot,
  focus: FocusTurn | null,
  scrollToIndex: (index: number) => void,
  following: RefObject<boolean>,
): string | null {
  const [target, setTarget] = useState<string | null>(null);
  // The request itself, so asking again for the same turn restarts its highlight.
  const [highlight, setHighlight] = useState<FocusTurn | null>(null);

  useEffect(() => {
    if (!controller || !focus) return;
    let live = true;
    void controller.loadUntil(focus.turnId).then((index) => {
      if (!live || index === -1) return;
      following.current = false;
      setTarget(focus.turnId);
      setHighlight(focus);
    });
    return () => {
      live = false;
    };
  }, [controller, focus, following]);

  // After the render that holds the paged-in turns, so the list knows their index.
  useLayoutEffect(() => {
    if (target === null) return;
    const index = snapshot.turns.findIndex((t) => t.turn.id === target);
    if (index === -1) return;
    scrollToIndex(index);
    setTarget(null);
  }, [target, snapshot.turns, scrollToIndex]);

  useEffect(() => {
    if (highlight === null) return;
    const timer = setTimeout(() => setHighlight(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlight]);

  return highlight?.turnId ?? null;
}
