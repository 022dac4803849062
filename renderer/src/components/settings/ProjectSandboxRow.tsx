import { useId, useState } from 'react';
import { ApiError, type CairnClient } from '../../../../sidecar/src/client';
import type { Project, UpdateProjectRequest } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { FieldFeedback } from './FieldFeedback';
import '../../i18n/messages/permissions';

type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'unavailable'; message: string }
  | { kind: 'error'; message: string };

/**
 * One project's sandbox: on or off, and whether what runs in it has network. The server refuses to turn
 * it on where it cannot run (409 sandbox_unavailable), and its message says what to install.
 */
export function ProjectSandboxRow(props: {
  project: Project;
  client: CairnClient;
  onSaved(project: Project): void;
}) {
  const { project, client } = props;
  const t = useT();
  const id = useId();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  const save = async (patch: UpdateProjectRequest) => {
    setStatus({ kind: 'saving' });
    try {
      props.onSaved(await client.updateProject(project.id, patch));
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus(
        error instanceof ApiError && error.code === 'sandbox_unavailable'
          ? { kind: 'unavailable', message: error.message }
          : { kind: 'error', message: messageOf(error) },
      );
    }
  };

  const saving = status.kind === 'saving';
  const on = project.sandbox === 'on';
  const feedback =
    status.kind === 'saved'
      ? t('settings.permissions.sandbox.saved')
      : status.kind === 'unavailable'
        ? t('settings.permissions.sandbox.unavailable', { message: status.message })
        : status.kind === 'error'
          ? t('settings.permissions.sandbox.error', { message: status.message })
          : null;
  return (
    <li className="model-item sandbox-item" aria-labelledby={`${id}-name`}>
      <div className="model-item-header">
        <span id={`${id}-name`} className="model-name">
          {project.name}
        </span>
        <span className="settings-mono settings-break python-project-path">{project.path}</span>
      </div>
      <div className="settings-actions">
        <label className="settings-check">
          <input
            type="checkbox"
            checked={on}
            disabled={saving}
            aria-label={t('settings.permissions.sandbox.enabledLabel', { name: project.name })}
            onChange={(e) => void save({ sandbox: e.target.checked ? 'on' : 'off' })}
          />
          {t('settings.permissions.sandbox.enabled')}
        </label>
        <label className="settings-check">
          <input
            type="checkbox"
            checked={project.sandbox_network === 'on'}
            // Network is a setting of the sandbox: without it, everything has network anyway.
            disabled={saving || !on}
            aria-label={t('settings.permissions.sandbox.networkLabel', { name: project.name })}
            onChange={(e) => void save({ sandbox_network: e.target.checked ? 'on' : 'off' })}
          />
          {t('settings.permissions.sandbox.network')}
        </label>
      </div>
      <FieldFeedback
        id={`${id}-feedback`}
        text={feedback}
        isError={status.kind === 'unavailable' || status.kind === 'error'}
      />
    </li>
  );
}
