import { useCallback, useEffect, useRef, useState } from 'react';

/** Something a card fetches from the sidecar: not yet asked for, on its way, here, or failed. */
export type Loaded<T> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; value: T }
  | { state: 'error'; message: string };

export function errorMessage(error: unknown): string {
  // ApiError carries the server's own sentence; network failures say which server could not be reached.
  return error instanceof Error ? error.message : String(error);
}

/**
 * Calls `load` once `wanted` turns true (null: nothing to load) and keeps what it gave while the card
 * exists; `retry` loads again after an error. A change of `load` does not reload by itself.
 */
export function useLoadWhen<T>(
  load: (() => Promise<T>) | null,
  wanted: boolean,
): { loaded: Loaded<T>; retry(): void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'idle' });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const run = useCallback(() => {
    if (!load) return;
    setLoaded({ state: 'loading' });
    load().then(
      (value) => {
        if (alive.current) setLoaded({ state: 'loaded', value });
      },
      (error: unknown) => {
        if (alive.current) setLoaded({ state: 'error', message: errorMessage(error) });
      },
    );
  }, [load]);
  useEffect(() => {
    if (wanted && loaded.state === 'idle') run();
  }, [wanted, loaded.state, run]);
  return { loaded, retry: run };
}
