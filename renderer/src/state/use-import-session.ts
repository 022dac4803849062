import { useCallback } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { Session } from '../../../sidecar/src/protocol';
import type { Translate } from '../i18n/i18n';
import { messageOf } from './session-controller';

/**
 * Imports a file made by "Export as JSON" as a new session, in `projectId`'s project (none when null); what
 * goes wrong (not JSON, refused by the server) is reported with the file's name.
 */
export function useImportSession(
  client: CairnClient,
  projectId: string | null,
  t: Translate,
  onImported: (session: Session) => void,
  onError: (message: string) => void,
): (file: File) => Promise<void> {
  return useCallback(
    async (file: File) => {
      let data: unknown;
      try {
        data = JSON.parse(await file.text());
      } catch {
        onError(t('session.importFailed', { file: file.name, message: t('session.importNotJson') }));
        return;
      }
      try {
        onImported(await client.importSession(data, projectId ?? undefined));
      } catch (error) {
        onError(t('session.importFailed', { file: file.name, message: messageOf(error) }));
      }
    },
    [client, projectId, t, onImported, onError],
  );
}
