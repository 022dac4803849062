import { useEffect, useState } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { SessionDetail } from '../../../sidecar/src/protocol';

/**
 * The open session's detail (its branches and its usage), read again whenever `version` changes: the
 * conversation passes its running turn, so the totals catch up when a turn starts and when it ends.
 */
export function useSessionDetail(
  client: CairnClient,
  sessionId: string,
  version: unknown,
): SessionDetail | null {
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the signal to read again
  useEffect(() => {
    let live = true;
    client.getSession(sessionId).then(
      (read) => live && setDetail(read),
      // The header's extras are left out rather than shown stale; the conversation reports real failures.
      () => live && setDetail(null),
    );
    return () => {
      live = false;
    };
  }, [client, sessionId, version]);
  return detail?.id === sessionId ? detail : null;
}
