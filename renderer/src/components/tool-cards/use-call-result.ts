import { useCallback, useMemo } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ToolCallWithResult } from '../../../../sidecar/src/protocol';
import { useLoadWhen } from './use-load-when';

export { errorMessage } from './use-load-when';

/** A finished call's whole result, fetched (with the token) when its card first needs it. */
export type CallResult =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; call: ToolCallWithResult }
  | { state: 'error'; message: string };

/**
 * Loads the call once `wanted` turns true (the card is open and the call has ended) and keeps it while the
 * card exists; `retry` loads it again after an error.
 */
export function useCallResult(
  client: CairnClient,
  toolCallId: string | null,
  wanted: boolean,
): { result: CallResult; retry(): void } {
  const fetchCall = useCallback(() => client.toolCall(toolCallId ?? ''), [client, toolCallId]);
  const { loaded, retry } = useLoadWhen(toolCallId ? fetchCall : null, wanted);
  const result = useMemo(
    (): CallResult => (loaded.state === 'loaded' ? { state: 'loaded', call: loaded.value } : loaded),
    [loaded],
  );
  return { result, retry };
}
