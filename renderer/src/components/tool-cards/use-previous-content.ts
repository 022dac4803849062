import { useCallback } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { type Loaded, useLoadWhen } from './use-load-when';

/** Loads the text a Write call replaced once `wanted` turns true, and keeps it while the card exists. */
export function usePreviousContent(
  client: CairnClient,
  toolCallId: string | null,
  wanted: boolean,
): Loaded<string> {
  const fetchPrevious = useCallback(() => client.previousContent(toolCallId ?? ''), [client, toolCallId]);
  return useLoadWhen(toolCallId ? fetchPrevious : null, wanted).loaded;
}
