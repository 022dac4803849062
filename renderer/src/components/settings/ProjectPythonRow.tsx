import { type FormEvent, useId, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { Project, ProjectPython } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { FieldFeedback } from './FieldFeedback';
import { commandLine } from './kernel-provider-request';
import '../../i18n/messages/settings';

type Interpreter =
  | { kind: 'unchecked' }
  | { kind: 'checking' }
  | { kind: 'found'; python: ProjectPython }
  | { kind: 'missing'; message: string };

type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'empty' }
  | { kind: 'error'; message: string };

/**
 * One project's interpreter: the one in use, a path to set, and the way back to the default. The interpreter
 * is only looked up when asked (or after a change): looking it up runs the project's `.venv` Python, and
 * opening Settings should not run code from every project folder.
 */
export function ProjectPythonRow(props: {
  project: Project;
  client: CairnClient;
  onSaved(project: Project): void;
}) {
  const { project, client } = props;
  const t = useT();
  const id = useId();
  const [value, setValue] = useState(project.python_path ?? '');
  const [interpreter, setInterpreter] = useState<Interpreter>({ kind: 'unchecked' });
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });

  const check = async () => {
    setInterpreter({ kind: 'checking' });
    try {
      setInterpreter({ kind: 'found', python: await client.projectPython(project.id) });
    } catch (error) {
      setInterpreter({ kind: 'missing', message: messageOf(error) });
    }
  };

  const save = async (pythonPath: string | null) => {
    setStatus({ kind: 'saving' });
    try {
      const updated = await client.setProjectPython(project.id, pythonPath);
      setValue(updated.python_path ?? '');
      setStatus({ kind: 'saved' });
      props.onSaved(updated);
    } catch (error) {
      setStatus({ kind: 'error', message: messageOf(error) });
      return;
    }
    await check();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const path = value.trim();
    if (path === '') {
      setStatus({ kind: 'empty' });
      return;
    }
    void save(path);
  };

  const saving = status.kind === 'saving';
  const isError = status.kind === 'error' || status.kind === 'empty';
  const feedback =
    status.kind === 'saved'
      ? t('settings.kernels.saved')
      : status.kind === 'empty'
        ? t('settings.kernels.empty')
        : status.kind === 'error'
          ? t('settings.kernels.error', { message: status.message })
          : null;
  const inputId = `${id}-path`;
  const hintId = `${id}-hint`;
  const feedbackId = `${id}-feedback`;

  return (
    <li className="model-item python-item" aria-labelledby={`${id}-name`}>
      <div className="model-item-header">
        <span id={`${id}-name`} className="model-name">
          {project.name}
        </span>
        <span className="settings-mono settings-break python-project-path">{project.path}</span>
      </div>
      <dl className="model-details">
        <div>
          <dt>{t('settings.kernels.inUse')}</dt>
          <dd className="python-in-use" aria-live="polite">
            <InterpreterView interpreter={interpreter} />
          </dd>
        </div>
      </dl>
      <div className="settings-actions">
        <button
          type="button"
          className="settings-button"
          onClick={() => void check()}
          disabled={interpreter.kind === 'checking'}
          aria-label={t('settings.kernels.checkLabel', { name: project.name })}
        >
          {t('settings.kernels.check')}
        </button>
      </div>
      <form className="key-form" onSubmit={submit} noValidate>
        <label htmlFor={inputId} className="key-label">
          {t('settings.kernels.path')}
        </label>
        <div className="key-row">
          <input
            id={inputId}
            type="text"
            className="key-input settings-mono"
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              if (status.kind !== 'saving') setStatus({ kind: 'idle' });
            }}
            aria-label={t('settings.kernels.pathLabel', { name: project.name })}
            aria-describedby={`${hintId}${feedback ? ` ${feedbackId}` : ''}`}
            aria-invalid={isError ? true : undefined}
            placeholder={t('settings.kernels.pathPlaceholder')}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck="false"
          />
          <button
            type="submit"
            className="settings-button"
            disabled={saving}
            aria-label={t('settings.kernels.saveLabel', { name: project.name })}
          >
            {saving ? t('settings.kernels.saving') : t('settings.kernels.save')}
          </button>
          <button
            type="button"
            className="settings-button"
            disabled={saving || project.python_path === null}
            onClick={() => void save(null)}
            aria-label={t('settings.kernels.useDefaultLabel', { name: project.name })}
          >
            {t('settings.kernels.useDefault')}
          </button>
        </div>
        <p id={hintId} className="settings-hint">
          {t('settings.kernels.pathHint')}
        </p>
        <FieldFeedback id={feedbackId} text={feedback} isError={isError} />
      </form>
    </li>
  );
}

function InterpreterView({ interpreter }: { interpreter: Interpreter }) {
  const t = useT();
  switch (interpreter.kind) {
    case 'unchecked':
      return <span className="settings-muted">{t('settings.kernels.notChecked')}</span>;
    case 'checking':
      return <span className="settings-muted">{t('settings.kernels.checking')}</span>;
    case 'missing':
      return (
        <span className="settings-field-error" role="alert">
          {t('settings.kernels.notFound', { message: interpreter.message })}
        </span>
      );
    case 'found': {
      const { python } = interpreter;
      return (
        <span className="python-found" data-source={python.source}>
          <span className="settings-mono settings-break">{commandLine(python)}</span>
          {python.version && (
            <span className="settings-badge">
              {t('settings.kernels.version', { version: python.version })}
            </span>
          )}
          <span className="python-source">{t(`settings.kernels.source.${python.source}`)}</span>
        </span>
      );
    }
  }
}
