import { Suspense, useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { Backend } from '../../../sidecar/src/client';
import { bridgeErrorMessage, type ResolvedBackend, resolveBackend } from '../api/connection';
import { App } from './App';
import { BackendProblem, ConnectionScreen } from './lazy-parts';

type RootState =
  | { kind: 'resolving' }
  /** A browser with no known backend: ask for one. */
  | { kind: 'ask' }
  | ({ kind: 'ready' } & ResolvedBackend)
  /** The desktop host could not give a backend; its message says why. */
  | { kind: 'problem'; message: string; wasRemote: boolean };

/**
 * Finds the backend (bridge, URL fragment, or the connection screen), then shows the app. The backend
 * lives here, so the desktop host can swap it (a restarted sidecar) without the app losing its view.
 */
export function Root() {
  const [state, setState] = useState<RootState>({ kind: 'resolving' });
  const wasRemote = useRef(false);

  const resolve = useCallback(() => {
    resolveBackend().then(
      (found) => {
        if (!found) return setState({ kind: 'ask' });
        wasRemote.current = found.desktop?.info.mode === 'remote';
        setState({ kind: 'ready', ...found });
      },
      (error: unknown) =>
        setState(
          window.cairn
            ? { kind: 'problem', message: bridgeErrorMessage(error), wasRemote: wasRemote.current }
            : { kind: 'ask' },
        ),
    );
  }, []);
  // Before the first paint (an effect would wait a frame): the app's first requests hang on it.
  useLayoutEffect(resolve, [resolve]);

  const changed = useCallback((next: ResolvedBackend) => {
    wasRemote.current = next.desktop?.info.mode === 'remote';
    setState({ kind: 'ready', ...next });
  }, []);
  const lost = useCallback(
    (message: string) => setState({ kind: 'problem', message, wasRemote: wasRemote.current }),
    [],
  );
  const disconnect = useCallback(() => {
    if (!window.cairn) return setState({ kind: 'ask' });
    setState({ kind: 'resolving' });
    resolve();
  }, [resolve]);
  const connected = useCallback(
    (backend: Backend) => setState({ kind: 'ready', backend, desktop: null }),
    [],
  );

  switch (state.kind) {
    case 'resolving':
      return null;
    case 'ask':
      return (
        <Suspense fallback={null}>
          <ConnectionScreen initialUrl={window.location.origin} onConnected={connected} />
        </Suspense>
      );
    case 'problem':
      return (
        <Suspense fallback={null}>
          <BackendProblem
            message={state.message}
            bridge={window.cairn ?? null}
            remote={state.wasRemote}
            onRetry={disconnect}
          />
        </Suspense>
      );
    case 'ready':
      return (
        <App
          backend={state.backend}
          desktop={state.desktop}
          onDisconnect={disconnect}
          onBackendChanged={changed}
          onBackendLost={lost}
        />
      );
  }
}
