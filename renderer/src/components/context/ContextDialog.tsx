import { useEffect, useRef, useState } from 'react';
import type { ContextInfo } from '../../../../sidecar/src/protocol';
import type { CairnClient } from '../../api/http-client';
import { useT } from '../../i18n/i18n';
import { ContextInspect } from './ContextInspect';
import { ContextVersions } from './ContextVersions';
import { VersionView } from './VersionView';

/** The context view: what the next request holds, "compact now", the versions, and one version read only. */
export function ContextDialog(props: {
  client: CairnClient;
  sessionId: string;
  info: ContextInfo | null;
  onChanged(): void;
  onClose(): void;
  /** Opens straight on one version (from a compaction card's link). */
  version?: number;
}) {
  const t = useT();
  const [version, setVersion] = useState<number | null>(props.version ?? null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  return (
    <div className="modal-backdrop">
      <div
        className="modal context-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('context.title')}
        onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
      >
        <header className="context-dialog-header">
          <h2>{t('context.title')}</h2>
          {version !== null && props.version === undefined && (
            <button type="button" onClick={() => setVersion(null)}>
              {t('context.back')}
            </button>
          )}
          <button type="button" ref={closeRef} onClick={props.onClose}>
            {t('context.close')}
          </button>
        </header>
        {version !== null ? (
          <VersionView client={props.client} sessionId={props.sessionId} number={version} />
        ) : (
          <>
            <ContextInspect
              client={props.client}
              sessionId={props.sessionId}
              info={props.info}
              onChanged={props.onChanged}
            />
            <ContextVersions
              client={props.client}
              sessionId={props.sessionId}
              head={props.info?.version ?? null}
              onView={setVersion}
            />
          </>
        )}
      </div>
    </div>
  );
}
