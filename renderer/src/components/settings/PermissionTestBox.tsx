import { type FormEvent, useId, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import {
  ApprovalMode,
  type PermissionDecision,
  type PermissionRule,
  type Project,
} from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { FieldFeedback } from './FieldFeedback';
import { ruleName } from './permission-labels';
import '../../i18n/messages/permissions';

/** The tools a test can be about, and the one field of their input it asks for. */
const TOOLS = ['Bash', 'Exec', 'Read', 'Write', 'Edit'] as const;
type TestTool = (typeof TOOLS)[number];

/** The call's input as the tool takes it: Exec's words split on spaces (enough for a test). */
function inputFor(tool: TestTool, text: string): Record<string, unknown> {
  if (tool === 'Bash') return { command: text };
  if (tool === 'Exec') {
    const [program = '', ...args] = text.trim().split(/\s+/);
    return { program, args };
  }
  return { path: text };
}

/** "Test a call": what the rules (then a mode) would decide for a command or a path, and why. */
export function PermissionTestBox(props: {
  client: CairnClient;
  projects: readonly Project[];
  rules: readonly PermissionRule[];
}) {
  const t = useT();
  const id = useId();
  const [tool, setTool] = useState<TestTool>('Bash');
  const [text, setText] = useState('');
  const [projectId, setProjectId] = useState('');
  const [mode, setMode] = useState<ApprovalMode>('ask');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<PermissionDecision | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setRunning(true);
    setError(null);
    try {
      setResult(
        await props.client.testPermission({
          tool,
          input: inputFor(tool, text),
          project_id: projectId === '' ? null : projectId,
          approval: mode,
        }),
      );
    } catch (err) {
      setResult(null);
      setError(t('settings.permissions.test.error', { message: messageOf(err) }));
    } finally {
      setRunning(false);
    }
  };

  const inputLabel =
    tool === 'Bash'
      ? t('settings.permissions.test.command')
      : tool === 'Exec'
        ? t('settings.permissions.test.commandLine')
        : t('settings.permissions.test.path');
  const decidedBy = result?.rule_id ? props.rules.find((r) => r.id === result.rule_id) : undefined;
  return (
    <form className="permission-test" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>{t('settings.permissions.test.title')}</h3>
      <p className="settings-description">{t('settings.permissions.test.description')}</p>
      <div className="model-form-grid">
        <div className="settings-field">
          <label htmlFor={`${id}-tool`}>{t('settings.permissions.tool')}</label>
          <select
            id={`${id}-tool`}
            value={tool}
            onChange={(e) => setTool(TOOLS.find((name) => name === e.target.value) ?? 'Bash')}
          >
            {TOOLS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="settings-field permission-test-input">
          <label htmlFor={`${id}-input`}>{inputLabel}</label>
          <input
            id={`${id}-input`}
            className="settings-mono"
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoComplete="off"
            spellCheck="false"
          />
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-project`}>{t('settings.permissions.test.project')}</label>
          <select id={`${id}-project`} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            <option value="">{t('settings.permissions.test.noProject')}</option>
            {props.projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-mode`}>{t('settings.permissions.test.mode')}</label>
          <select
            id={`${id}-mode`}
            value={mode}
            onChange={(e) => setMode(ApprovalMode.parse(e.target.value))}
          >
            {ApprovalMode.options.map((option) => (
              <option key={option} value={option}>
                {t(`session.approval.${option}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="settings-actions">
        <button type="submit" className="settings-button" disabled={running}>
          {running ? t('settings.permissions.test.running') : t('settings.permissions.test.run')}
        </button>
      </div>
      <FieldFeedback id={`${id}-error`} text={error} isError />
      {result && (
        <div className="permission-test-result" role="status" data-decision={result.decision}>
          <p className="permission-test-decision">
            {t('settings.permissions.test.decision', {
              decision: t(`settings.permissions.action.${result.decision}`),
            })}
          </p>
          <p>
            {result.rule_id === null
              ? t('settings.permissions.test.byMode')
              : t('settings.permissions.test.byRule', {
                  rule: decidedBy ? ruleName(decidedBy, t) : result.rule_id,
                })}
          </p>
          <p className="settings-muted">{t('settings.permissions.test.reason', { reason: result.reason })}</p>
        </div>
      )}
    </form>
  );
}
