import { type FormEvent, useId, useState } from 'react';
import { PermissionAction, type PermissionRule, type Project } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { FieldFeedback } from './FieldFeedback';
import '../../i18n/messages/permissions';

export interface RuleFormValues {
  tool: string;
  pattern: string | null;
  action: PermissionAction;
  /** Only when adding: a rule's scope stays as it was made. */
  project_id: string | null;
}

/**
 * Adds a rule (with its scope: everywhere or one project) or edits one's tool, pattern and action. The
 * server checks the pattern; its message shows under the form, which stays open with what was typed.
 */
export function PermissionRuleForm(props: {
  initial: PermissionRule | null;
  projects: readonly Project[];
  title: string;
  onSubmit(values: RuleFormValues): Promise<void>;
  onCancel(): void;
}) {
  const t = useT();
  const id = useId();
  const [tool, setTool] = useState(props.initial?.tool ?? 'Bash');
  const [pattern, setPattern] = useState(props.initial?.pattern ?? '');
  const [action, setAction] = useState<PermissionAction>(props.initial?.action ?? 'allow');
  const [projectId, setProjectId] = useState<string>('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const trimmed = pattern.trim();
      await props.onSubmit({
        tool: tool.trim(),
        pattern: trimmed === '' ? null : trimmed,
        action,
        project_id: projectId === '' ? null : projectId,
      });
    } catch (err) {
      setError(t('settings.permissions.saveError', { message: messageOf(err) }));
      setSaving(false);
    }
  };

  return (
    <form className="model-form permission-form" aria-label={props.title} onSubmit={submit} noValidate>
      <h3>{props.title}</h3>
      <div className="model-form-grid">
        <div className="settings-field">
          <label htmlFor={`${id}-tool`}>{t('settings.permissions.tool')}</label>
          <input
            id={`${id}-tool`}
            className="settings-mono"
            value={tool}
            onChange={(e) => setTool(e.target.value)}
            autoComplete="off"
            spellCheck="false"
          />
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-pattern`}>{t('settings.permissions.pattern')}</label>
          <input
            id={`${id}-pattern`}
            className="settings-mono"
            value={pattern}
            onChange={(e) => setPattern(e.target.value)}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            autoComplete="off"
            spellCheck="false"
          />
          <p id={`${id}-hint`} className="settings-hint">
            {t('settings.permissions.patternHint')}
          </p>
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-action`}>{t('settings.permissions.action')}</label>
          <select
            id={`${id}-action`}
            value={action}
            onChange={(e) => setAction(PermissionAction.parse(e.target.value))}
          >
            {PermissionAction.options.map((option) => (
              <option key={option} value={option}>
                {t(`settings.permissions.action.${option}`)}
              </option>
            ))}
          </select>
        </div>
        {props.initial === null && (
          <div className="settings-field">
            <label htmlFor={`${id}-scope`}>{t('settings.permissions.scope')}</label>
            <select id={`${id}-scope`} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <option value="">{t('settings.permissions.scope.global')}</option>
              {props.projects.map((project) => (
                <option key={project.id} value={project.id}>
                  {t('settings.permissions.scope.project', { name: project.name })}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <FieldFeedback id={`${id}-error`} text={error} isError />
      <div className="settings-actions">
        <button type="submit" className="settings-button settings-button-primary" disabled={saving}>
          {saving ? t('settings.permissions.saving') : t('settings.permissions.save')}
        </button>
        <button type="button" className="settings-button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
