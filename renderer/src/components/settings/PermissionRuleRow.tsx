import { useId } from 'react';
import type { PermissionRule, Project } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { ruleName, scopeLabel } from './permission-labels';
import '../../i18n/messages/permissions';

const ACTION_BADGE = {
  allow: 'settings-badge-success',
  ask: 'settings-badge-warning',
  deny: 'settings-badge-danger',
} as const;

/** One rule: its tool, pattern, action and scope, with Edit and Delete. */
export function PermissionRuleRow(props: {
  rule: PermissionRule;
  projects: readonly Project[];
  busy: boolean;
  error: string | null;
  onEdit(): void;
  onDelete(): void;
}) {
  const { rule } = props;
  const t = useT();
  const id = useId();
  const name = ruleName(rule, t);
  return (
    <li className="model-item permission-rule" aria-labelledby={`${id}-name`} data-rule-id={rule.id}>
      <div className="model-item-header">
        <span id={`${id}-name`} className="model-name settings-mono">
          {rule.tool}
        </span>
        <span className="settings-mono settings-break permission-pattern">
          {rule.pattern ?? <span className="settings-muted">{t('settings.permissions.anyInput')}</span>}
        </span>
        <span className={`settings-badge ${ACTION_BADGE[rule.action]}`}>
          {t(`settings.permissions.action.${rule.action}`)}
        </span>
        <span className="settings-badge permission-scope" title={rule.session_id ?? undefined}>
          {scopeLabel(rule, props.projects, t)}
        </span>
      </div>
      <div className="settings-actions">
        <button
          type="button"
          className="settings-button"
          disabled={props.busy}
          onClick={props.onEdit}
          aria-label={t('settings.permissions.editLabel', { rule: name })}
        >
          {t('settings.permissions.edit')}
        </button>
        <button
          type="button"
          className="settings-button settings-button-danger-quiet"
          disabled={props.busy}
          onClick={props.onDelete}
          aria-label={t('settings.permissions.deleteLabel', { rule: name })}
        >
          {t('settings.permissions.delete')}
        </button>
      </div>
      {props.error && (
        <p className="settings-field-error" role="alert">
          {props.error}
        </p>
      )}
    </li>
  );
}
