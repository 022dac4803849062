import { useCallback, useEffect, useState } from 'react';

/** Loads something and reloads it on demand; keeps the last value while reloading. A null `load` waits. */
export function useAsync<T>(load: (() => Promise<T>) | null, deps: readonly unknown[]) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: callers pass the dependencies of load
  useEffect(() => {
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
