import type { ReactNode } from 'react';
import type { CairnClient, StreamState } from '../../../sidecar/src/client';
import { ApprovalMode, type ContextInfo, type Project, type Session } from '../../../sidecar/src/protocol';
import { useI18n } from '../i18n/i18n';
import { SessionModeSelect } from './code-mode/SessionModeSelect';
import { ContextMeter } from './context/ContextMeter';
import { SandboxBadge } from './SandboxBadge';
import { SessionSettingSelect } from './SessionSettingSelect';

/** Title, context meter, approval mode, connection state and the side-panel toggle (with what waits there). */
export function SessionHeader(props: {
  client: CairnClient;
  session: Session;
  /** The session's project, whose sandbox settings the header shows; null for a chat. */
  project?: Project | null;
  streamState: StreamState;
  modelName: string | null;
  onChanged(): void;
  onTogglePanel(): void;
  context?: ContextInfo | null;
  onOpenContext?(): void;
  /** The approvals and questions that wait in the side panel (outside the running turn). */
  waiting?: number;
  /** A fork's conversation: it runs in its parent's approval mode, so there is none to choose here. */
  readOnly?: boolean;
  /** A turn runs in the session: its mode stays until it ends. */
  running?: boolean;
  /** The session's actions menu (export, import), before the connection dot. */
  menu?: ReactNode;
}) {
  const { t, formatNumber } = useI18n();
  const waiting = props.waiting ?? 0;
  return (
    <header className="session-header">
      <h1 className="session-title">{props.session.title}</h1>
      {props.modelName && (
        <span className="session-model muted" title={t('session.model')}>
          {props.modelName}
        </span>
      )}
      {props.onOpenContext && <ContextMeter info={props.context ?? null} onOpen={props.onOpenContext} />}
      {props.project && <SandboxBadge project={props.project} />}
      {!props.readOnly && (
        <SessionSettingSelect
          client={props.client}
          session={props.session}
          field="approval"
          options={ApprovalMode.options}
          label={t('session.approval')}
          optionLabel={(mode) => t(`session.approval.${mode}`)}
          optionHint={(mode) => t(`session.approval.${mode}.hint`)}
          // The chosen mode's explanation, as the options' own titles show in few browsers.
          title={t(`session.approval.${props.session.approval}.hint`)}
          className="approval-select"
          errorText={(message) => t('session.approval.error', { message })}
          onChanged={props.onChanged}
        />
      )}
      {!props.readOnly && (
        <SessionModeSelect
          client={props.client}
          session={props.session}
          running={props.running ?? false}
          onChanged={props.onChanged}
        />
      )}
      {props.menu}
      <span
        className={`connection-dot ${props.streamState}`}
        role="img"
        aria-label={t(`connection.state.${props.streamState}`)}
        title={t(`connection.state.${props.streamState}`)}
      />
      <button
        type="button"
        className="icon-button"
        aria-label={
          waiting > 0 ? t('background.waiting.toggle', { count: formatNumber(waiting) }) : t('panel.toggle')
        }
        onClick={props.onTogglePanel}
      >
        ◫
        {waiting > 0 && (
          <span className="panel-toggle-badge" aria-hidden="true">
            {formatNumber(waiting)}
          </span>
        )}
      </button>
    </header>
  );
}
