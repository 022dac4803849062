import { useCallback, useLayoutEffect, useState } from 'react';

/** Loads something and reloads it on demand; keeps the last value while reloading. A null `load` waits. */
export function useAsync<T>(load: (() => Promise<T>) | null, deps: readonly unknown[]) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  // A layout effect: the request starts as the component commits, not after the next paint (an effect
  // waits for a frame), which is most of a first screen's idle time.
  // biome-ignore lint/correctness/useExhaustiveDependencies: callers pass the dependencies of load
  useLayoutEffect(() => {
    if (!load) return;
    let live = true;
    load().then(
      (v) => {
        if (live) {
          setValue(v);
          setError(null);
        }
      },
      (e: unknown) => {
        if (live) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { value, error, reload };
}
