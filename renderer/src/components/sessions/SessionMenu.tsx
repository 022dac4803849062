import { Suspense, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { Session } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { downloadBlob, fileNameFor } from '../download-blob';
import { SessionChangesDialog } from '../lazy-parts';
import { ImportFileInput } from './ImportFileInput';
import { MenuButton } from './MenuButton';

/**
 * The session header's "⋯": what the session changed in its project's files, export the session as
 * Markdown or JSON, import one from a JSON export.
 */
export function SessionMenu(props: {
  client: CairnClient;
  session: Session;
  /** Brings a chosen export file in as a new session (the app opens it). */
  onImport(file: File): void;
  onError(message: string): void;
}) {
  const t = useT();
  const fileInput = useRef<HTMLInputElement>(null);
  const [showChanges, setShowChanges] = useState(false);
  const { client, session } = props;

  const exportAs = async (format: 'md' | 'json') => {
    try {
      const blob =
        format === 'md'
          ? new Blob([await client.exportMarkdown(session.id)], { type: 'text/markdown' })
          : new Blob([JSON.stringify(await client.exportJson(session.id), null, 2)], {
              type: 'application/json',
            });
      downloadBlob(blob, fileNameFor(session.title, format));
    } catch (error) {
      props.onError(t('session.exportFailed', { message: messageOf(error) }));
    }
  };

  return (
    <>
      <MenuButton
        label="⋯"
        ariaLabel={t('session.actions')}
        title={t('session.actions')}
        menuLabel={t('session.actions')}
        items={[
          ...(session.project_id === null
            ? []
            : [{ key: 'changes', label: t('changes.session.menu'), onSelect: () => setShowChanges(true) }]),
          { key: 'md', label: t('session.exportMd'), onSelect: () => void exportAs('md') },
          { key: 'json', label: t('session.exportJson'), onSelect: () => void exportAs('json') },
          { key: 'import', label: t('session.import'), onSelect: () => fileInput.current?.click() },
        ]}
      />
      <ImportFileInput inputRef={fileInput} onImport={props.onImport} testId="import-session-file" />
      {showChanges && (
        <Suspense fallback={null}>
          <SessionChangesDialog
            client={client}
            sessionId={session.id}
            onClose={() => setShowChanges(false)}
          />
        </Suspense>
      )}
    </>
  );
}
