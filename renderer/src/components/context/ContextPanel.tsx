import { useEffect, useRef, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { ContextInfo } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import type { EventSource } from '../../state/session-controller';
import type { CompactNow } from '../../state/use-compact-now';
import { useContextInfo } from '../../state/use-context-info';
import { ContextInspect } from './ContextInspect';
import { ContextVersions } from './ContextVersions';
import { VersionView } from './VersionView';
import '../../i18n/messages/context-panel';

/** Where the context section is asked to open: its overview, or one version; `nonce` repeats a request. */
export interface ContextRequest {
  version?: number;
  nonce: number;
}

/**
 * The side panel's context section: what the next request holds, "compact now", the versions, and one
 * version read only. The header's meter and a compaction card's link open it where they point.
 */
export function ContextPanel(props: {
  client: CairnClient;
  sessionId: string;
  /** The session's events: the units are read again when they change, while the section shows them. */
  events: EventSource;
  /** The size alone (the meter's read); the units are read here, while the section is open. */
  info: ContextInfo | null;
  infoError: string | null;
  compaction: CompactNow;
  turnRunning: boolean;
  request: ContextRequest | null;
  /** A fork's context: read, never compacted from here. */
  readOnly?: boolean;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState<number | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLDetailsElement>(null);
  const showsUnits = open && version === null;
  const full = useContextInfo(props.client, props.sessionId, showsUnits ? props.events : null, {
    units: true,
  });

  const { request } = props;
  useEffect(() => {
    if (!request) return;
    setOpen(true);
    setVersion(request.version ?? null);
    section.current?.scrollIntoView?.({ block: 'nearest' });
    heading.current?.focus();
  }, [request]);

  return (
    <details
      ref={section}
      className="panel-section context-panel"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <h2 ref={heading} tabIndex={-1}>
          {t('context.title')}
        </h2>
      </summary>
      {(props.infoError ?? (showsUnits ? full.error : null)) && (
        <p className="error-text" role="alert">
          {props.infoError ?? full.error}
        </p>
      )}
      {version !== null ? (
        <>
          <button type="button" className="link-button" onClick={() => setVersion(null)}>
            {t('context.back')}
          </button>
          <VersionView client={props.client} sessionId={props.sessionId} number={version} />
        </>
      ) : (
        <>
          <ContextInspect
            info={full.value ?? props.info}
            units={full.value?.units ?? null}
            compaction={props.compaction}
            turnRunning={props.turnRunning}
            readOnly={props.readOnly}
          />
          <ContextVersions
            client={props.client}
            sessionId={props.sessionId}
            head={props.info?.version ?? null}
            onView={setVersion}
          />
        </>
      )}
    </details>
  );
}
