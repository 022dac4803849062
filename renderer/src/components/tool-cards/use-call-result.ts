import { useCallback, useEffect, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ToolCallWithResult } from '../../../../sidecar/src/protocol';

/** A finished call's whole result, fetched (with the token) when its card first needs it. */
export type CallResult =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; call: ToolCallWithResult }
  | { state: 'error'; message: string };

export function errorMessage(error: unknown): string {
  // ApiError carries the server's own sentence; network failures say which server could not be reached.
  return error instanceof Error ? error.message : String(error);
}

/**
 * Loads the call once `wanted` turns true (the card is open and the call has ended) and keeps it while the
 * card exists; `retry` loads it again after an error.
 */
export function useCallResult(
  client: CairnClient,
  toolCallId: string | null,
  wanted: boolean,
): { result: CallResult; retry(): void } {
  const [result, setResult] = useState<CallResult>({ state: 'idle' });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const load = useCallback(() => {
    if (!toolCallId) return;
    setResult({ state: 'loading' });
    client.toolCall(toolCallId).then(
      (call) => {
        if (alive.current) setResult({ state: 'loaded', call });
      },
      (error: unknown) => {
        if (alive.current) setResult({ state: 'error', message: errorMessage(error) });
      },
    );
  }, [client, toolCallId]);
  useEffect(() => {
    if (wanted && result.state === 'idle') load();
  }, [wanted, result.state, load]);
  return { result, retry: load };
}
