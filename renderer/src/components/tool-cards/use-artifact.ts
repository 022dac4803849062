import { useEffect, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { errorMessage } from './use-call-result';

export type ArtifactState<T> =
  | { state: 'loading' }
  | { state: 'loaded'; value: T }
  | { state: 'error'; message: string };

/**
 * A kernel's saved output fetched with the token in a header (never in a URL), turned into what the card
 * shows by `read`; `release` frees it when the card closes or the id changes (an object URL, say).
 */
export function useArtifact<T>(
  client: CairnClient,
  id: string,
  read: (blob: Blob) => T | Promise<T>,
  release?: (value: T) => void,
): ArtifactState<T> {
  const [state, setState] = useState<ArtifactState<T>>({ state: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: read and release are fixed per kind of output; the id says what to fetch
  useEffect(() => {
    let cancelled = false;
    let made: { value: T } | null = null;
    setState({ state: 'loading' });
    client
      .artifactBlob(id)
      .then(read)
      .then(
        (value) => {
          made = { value };
          if (cancelled) release?.(value);
          else setState({ state: 'loaded', value });
        },
        (e: unknown) => {
          if (!cancelled) setState({ state: 'error', message: errorMessage(e) });
        },
      );
    return () => {
      cancelled = true;
      if (made) release?.(made.value);
    };
  }, [client, id]);
  return state;
}
