import { act } from '@testing-library/react';
import type { CairnEvent, NewEvent } from '../../../sidecar/src/protocol';

/** A session's live events as SessionController.listen gives them; `emit` delivers inside React's act. */
export function liveSource(make: (e: NewEvent) => CairnEvent) {
  const listeners = new Set<(e: CairnEvent) => void>();
  return {
    listen(listener: (e: CairnEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(e: NewEvent) {
      const event = make(e);
      act(() => {
        for (const l of listeners) l(event);
      });
    },
  };
}
