import { useEffect, useState } from 'react';
import { resolveBackend } from '../api/connection';
import type { Backend } from '../api/http-client';
import { App } from './App';
import { ConnectionScreen } from './ConnectionScreen';

/** Finds the backend (bridge, URL fragment, or the connection screen), then shows the app. */
export function Root() {
  const [backend, setBackend] = useState<Backend | null | undefined>(undefined);
  useEffect(() => {
    resolveBackend().then(setBackend, () => setBackend(null));
  }, []);
  if (backend === undefined) return null;
  if (backend === null)
    return <ConnectionScreen initialUrl={window.location.origin} onConnected={setBackend} />;
  return <App backend={backend} onDisconnect={() => setBackend(null)} />;
}
