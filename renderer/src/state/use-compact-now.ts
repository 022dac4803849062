import { useCallback, useRef, useState } from 'react';
import { ApiError, type CairnClient } from '../../../sidecar/src/client';
import type { CompactionLevel, CompactResponse } from '../../../sidecar/src/protocol';

export type CompactLevel = CompactionLevel | 'auto';

/** How the last "compact now" ended: the version it wrote, or the error's code and message. */
export type CompactOutcome =
  | { kind: 'done'; response: CompactResponse }
  | { kind: 'failed'; code: string | null; message: string };

/**
 * The user's "compact now" for one session, held by the open conversation so that moving about the side
 * panel (or closing it) never cancels it: only `cancel` does, and the sidecar then keeps the context.
 */
export function useCompactNow(client: CairnClient, sessionId: string, onChanged: () => void) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CompactOutcome | null>(null);
  const running = useRef<AbortController | null>(null);

  const compact = useCallback(
    async (level: CompactLevel) => {
      if (running.current) return;
      const controller = new AbortController();
      running.current = controller;
      setBusy(true);
      setOutcome(null);
      try {
        const response = await client.compactNow(sessionId, { level }, controller.signal);
        setOutcome({ kind: 'done', response });
        onChanged();
      } catch (e) {
        setOutcome({
          kind: 'failed',
          code: e instanceof ApiError ? e.code : null,
          message: e instanceof Error ? e.message : String(e),
        });
      } finally {
        running.current = null;
        setBusy(false);
      }
    },
    [client, sessionId, onChanged],
  );
  const cancel = useCallback(() => running.current?.abort(), []);
  return { busy, outcome, compact, cancel };
}

export type CompactNow = ReturnType<typeof useCompactNow>;
