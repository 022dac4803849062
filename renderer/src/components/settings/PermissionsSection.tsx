import { useCallback, useEffect, useId, useState } from 'react';
import { ApiError, type CairnClient } from '../../../../sidecar/src/client';
import type { PermissionRule, Project } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { ConfirmDialog } from '../ConfirmDialog';
import { PermissionRuleForm, type RuleFormValues } from './PermissionRuleForm';
import { PermissionRuleRow } from './PermissionRuleRow';
import { PermissionTestBox } from './PermissionTestBox';
import { ProjectSandboxRow } from './ProjectSandboxRow';
import { ruleName } from './permission-labels';
import '../../i18n/messages/permissions';

type Editing = { kind: 'new' } | { kind: 'edit'; rule: PermissionRule } | null;

/**
 * Settings → Permissions: the rules (every scope) to list, add, edit and delete, a box to test what they
 * decide for a call, and each project's sandbox. Not shown when the server runs no tools (conversation-only).
 */
export function PermissionsSection({ client }: { client: CairnClient }) {
  const t = useT();
  const id = useId();
  const [available, setAvailable] = useState<boolean | null>(null);
  const [rules, setRules] = useState<PermissionRule[] | null>(null);
  const [projects, setProjects] = useState<Project[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<PermissionRule | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<{ id: string; message: string } | null>(null);

  const reload = useCallback(async () => {
    try {
      const [list, folders] = await Promise.all([
        client.listPermissionRules(),
        client.listProjects().catch(() => []),
      ]);
      setRules(list);
      setProjects(folders);
      setAvailable(true);
      setLoadError(null);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'conversation_only') setAvailable(false);
      else setLoadError(messageOf(error));
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const add = async (values: RuleFormValues) => {
    await client.createPermissionRule(values);
    setEditing(null);
    await reload();
  };

  const update = async (rule: PermissionRule, values: RuleFormValues) => {
    await client.updatePermissionRule(rule.id, {
      tool: values.tool,
      pattern: values.pattern,
      action: values.action,
    });
    setEditing(null);
    await reload();
  };

  const remove = async (rule: PermissionRule) => {
    setBusy(rule.id);
    setDeleteError(null);
    try {
      await client.deletePermissionRule(rule.id);
      await reload();
    } catch (error) {
      setDeleteError({
        id: rule.id,
        message: t('settings.permissions.deleteError', { message: messageOf(error) }),
      });
    } finally {
      setBusy(null);
    }
  };

  const onProjectSaved = useCallback((updated: Project) => {
    setProjects((list) => list.map((p) => (p.id === updated.id ? updated : p)));
  }, []);

  if (available === false) return null;
  return (
    <section className="settings-section permissions-section" aria-labelledby={`${id}-title`}>
      <div className="settings-section-header">
        <h2 id={`${id}-title`}>{t('settings.permissions.title')}</h2>
        <div className="settings-actions">
          <button
            type="button"
            className="settings-button settings-button-primary"
            disabled={editing?.kind === 'new' || rules === null}
            onClick={() => setEditing({ kind: 'new' })}
          >
            {t('settings.permissions.add')}
          </button>
        </div>
      </div>
      <p className="settings-description">{t('settings.permissions.description')}</p>

      {editing?.kind === 'new' && (
        <PermissionRuleForm
          initial={null}
          projects={projects}
          title={t('settings.permissions.addTitle')}
          onSubmit={add}
          onCancel={() => setEditing(null)}
        />
      )}

      <h3 id={`${id}-rules`}>{t('settings.permissions.rules')}</h3>
      {loadError && (
        <div className="settings-error" role="alert">
          <p>{t('settings.permissions.loadError', { message: loadError })}</p>
          <button type="button" className="settings-button" onClick={() => void reload()}>
            {t('settings.permissions.retry')}
          </button>
        </div>
      )}
      {rules === null && !loadError && <p className="settings-muted">{t('settings.permissions.loading')}</p>}
      {rules?.length === 0 && <p className="settings-empty">{t('settings.permissions.empty')}</p>}
      {rules && rules.length > 0 && (
        <ul className="settings-list" aria-labelledby={`${id}-rules`}>
          {rules.map((rule) =>
            editing?.kind === 'edit' && editing.rule.id === rule.id ? (
              <li key={rule.id} className="model-item model-item-editing">
                <PermissionRuleForm
                  initial={rule}
                  projects={projects}
                  title={t('settings.permissions.editTitle', { rule: ruleName(rule, t) })}
                  onSubmit={(values) => update(rule, values)}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <PermissionRuleRow
                key={rule.id}
                rule={rule}
                projects={projects}
                busy={busy === rule.id}
                error={deleteError?.id === rule.id ? deleteError.message : null}
                onEdit={() => setEditing({ kind: 'edit', rule })}
                onDelete={() => setDeleting(rule)}
              />
            ),
          )}
        </ul>
      )}

      {rules && <PermissionTestBox client={client} projects={projects} rules={rules} />}

      {projects.length > 0 && (
        <>
          <h3 id={`${id}-sandbox`}>{t('settings.permissions.sandbox.title')}</h3>
          <p className="settings-description">{t('settings.permissions.sandbox.description')}</p>
          <ul className="settings-list" aria-labelledby={`${id}-sandbox`}>
            {projects.map((project) => (
              <ProjectSandboxRow
                key={project.id}
                project={project}
                client={client}
                onSaved={onProjectSaved}
              />
            ))}
          </ul>
        </>
      )}

      {deleting && (
        <ConfirmDialog
          message={t('settings.permissions.deleteConfirm', { rule: ruleName(deleting, t) })}
          confirmLabel={t('settings.permissions.delete')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const rule = deleting;
            setDeleting(null);
            void remove(rule);
          }}
        />
      )}
    </section>
  );
}
