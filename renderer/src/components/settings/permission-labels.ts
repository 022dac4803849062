import type { PermissionRule, Project } from '../../../../sidecar/src/protocol';
import type { Translate } from '../../i18n/i18n';
import '../../i18n/messages/permissions';

/** A rule as people name it: its tool and pattern ("Bash npm run test *"), or "any input". */
export function ruleName(rule: Pick<PermissionRule, 'tool' | 'pattern'>, t: Translate): string {
  return t('settings.permissions.rule', {
    tool: rule.tool,
    pattern: rule.pattern ?? t('settings.permissions.anyInput'),
  });
}

/** Where a rule applies: everywhere, one project (by name, else its id), or one session. */
export function scopeLabel(rule: PermissionRule, projects: readonly Project[], t: Translate): string {
  if (rule.session_id !== null) return t('settings.permissions.scope.session');
  if (rule.project_id === null) return t('settings.permissions.scope.global');
  const project = projects.find((p) => p.id === rule.project_id);
  return t('settings.permissions.scope.project', { name: project?.name ?? rule.project_id });
}
