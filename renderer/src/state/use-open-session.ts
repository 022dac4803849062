import { useEffect, useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { Session } from '../../../sidecar/src/protocol';

/**
 * The open session: from the session list when it is there, else read by its id (a fork, which the list
 * leaves out). Read again whenever the list is, so a fork's state keeps up like a listed session's.
 */
export function useOpenSession(
  client: CairnClient,
  sessions: readonly Session[] | null,
  id: string | null,
): Session | null {
  const listed = sessions?.find((s) => s.id === id) ?? null;
  const [read, setRead] = useState<Session | null>(null);
  const unlisted = id !== null && sessions !== null && listed === null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again each time the list is read
  useEffect(() => {
    if (!unlisted || id === null) return;
    let live = true;
    client.getSession(id).then(
      (session) => live && setRead(session),
      // Gone (a deleted parent takes its forks along): nothing is open.
      () => live && setRead(null),
    );
    return () => {
      live = false;
    };
  }, [client, id, unlisted, sessions]);
  if (listed) return listed;
  return unlisted && read?.id === id ? read : null;
}
