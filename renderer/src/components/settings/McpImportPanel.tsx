import { type FormEvent, useEffect, useId, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { McpImportPreview, McpImportSource, Project } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { serverTarget } from '../mcp/mcp-form';
import {
  type AnswerKind,
  confirmOf,
  type ImportAnswer,
  initialAnswers,
  initialChoice,
  neededQuestions,
} from '../mcp/mcp-import';
import '../../i18n/messages/mcp';

const SOURCES: McpImportSource[] = ['claude_desktop', 'cursor', 'vscode', 'claude_code'];
const ANSWER_KINDS: AnswerKind[] = ['text', 'env', 'secret'];

/**
 * Import from another app's config: read it (its usual place, a chosen file, or a project's file), show
 * every server with its full command and environment names, ask for the placeholders the chosen servers
 * need, and import only those chosen.
 */
export function McpImportPanel({ client, onClose }: { client: CairnClient; onClose(): void }) {
  const t = useT();
  const id = useId();
  const [source, setSource] = useState<McpImportSource>('claude_desktop');
  const [path, setPath] = useState('');
  const [projectId, setProjectId] = useState('');
  const [projects, setProjects] = useState<Project[]>([]);
  const [preview, setPreview] = useState<McpImportPreview | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [answers, setAnswers] = useState<Record<string, ImportAnswer>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string[] | null>(null);

  useEffect(() => {
    client.listProjects().then(setProjects, () => setProjects([]));
  }, [client]);

  const base = () => ({
    source,
    ...(path.trim() ? { path: path.trim() } : {}),
    ...(projectId ? { project_id: projectId } : {}),
  });

  const read = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const next = await client.previewMcpImport(base());
      setPreview(next);
      setChosen(initialChoice(next));
      setAnswers(initialAnswers(next));
    } catch (e) {
      setPreview(null);
      setError(t('mcp.import.readError', { message: messageOf(e) }));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!preview) return;
    const result = confirmOf(preview, chosen, answers);
    if (!result.ok) {
      setError(
        result.reason === 'none_chosen'
          ? t('mcp.import.noneChosen')
          : t('mcp.import.unanswered', { questions: result.questions.join(', ') }),
      );
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const imported = await client.confirmMcpImport({ ...base(), confirm: result.confirm });
      // Typed secrets are not kept in the page once sent.
      setAnswers({});
      setPreview(null);
      setDone(imported.imported.map((s) => s.name));
    } catch (e) {
      setError(t('mcp.import.confirmError', { message: messageOf(e) }));
    } finally {
      setBusy(false);
    }
  };

  const needed = preview ? neededQuestions(preview, chosen) : [];
  return (
    <section className="model-form mcp-import" aria-label={t('mcp.import.title')}>
      <h3>{t('mcp.import.title')}</h3>
      <form className="mcp-import-source" onSubmit={(e) => void read(e)}>
        <div className="model-form-grid">
          <div className="settings-field">
            <label htmlFor={`${id}-source`}>{t('mcp.import.source')}</label>
            <select
              id={`${id}-source`}
              value={source}
              disabled={busy}
              onChange={(e) => {
                setSource(e.target.value as McpImportSource);
                setPreview(null);
              }}
            >
              {SOURCES.map((s) => (
                <option key={s} value={s}>
                  {t(`mcp.import.source.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="settings-field">
            <label htmlFor={`${id}-project`}>{t('mcp.import.project')}</label>
            <select
              id={`${id}-project`}
              value={projectId}
              disabled={busy}
              onChange={(e) => setProjectId(e.target.value)}
            >
              <option value="">{t('mcp.import.noProject')}</option>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="settings-field">
          <label htmlFor={`${id}-path`}>{t('mcp.import.path')}</label>
          <input
            id={`${id}-path`}
            type="text"
            className="settings-mono"
            value={path}
            disabled={busy}
            spellCheck="false"
            autoComplete="off"
            placeholder={t('mcp.import.pathPlaceholder')}
            aria-describedby={`${id}-path-hint`}
            onChange={(e) => setPath(e.target.value)}
          />
          <p id={`${id}-path-hint`} className="settings-hint">
            {t('mcp.import.pathHint')}
          </p>
        </div>
        <div className="settings-actions">
          <button type="submit" className="settings-button" disabled={busy}>
            {t('mcp.import.read')}
          </button>
          <button type="button" className="settings-button" disabled={busy} onClick={onClose}>
            {done ? t('common.close') : t('common.cancel')}
          </button>
        </div>
      </form>

      {preview && (
        <div className="mcp-import-preview">
          {preview.path && (
            <p className="settings-hint">{t('mcp.import.readFrom', { path: preview.path })}</p>
          )}
          {preview.candidates.length === 0 && <p className="settings-empty">{t('mcp.import.empty')}</p>}
          <ul className="settings-list">
            {preview.candidates.map((c) => {
              const env = Object.keys(c.server.env ?? {});
              const headers = Object.keys(c.server.headers ?? {});
              const checked = chosen.includes(c.name);
              return (
                <li key={c.name} className="model-item mcp-candidate">
                  <label className="mcp-check">
                    <input
                      type="checkbox"
                      checked={checked}
                      disabled={busy}
                      onChange={(e) =>
                        setChosen((list) =>
                          e.target.checked ? [...list, c.name] : list.filter((n) => n !== c.name),
                        )
                      }
                    />
                    <span className="model-name">{c.name}</span>
                  </label>{' '}
                  <span className="settings-muted">{t(`mcp.transport.${c.server.transport}`)}</span>{' '}
                  {c.exists && (
                    <span className="settings-badge settings-badge-warning">{t('mcp.import.exists')}</span>
                  )}
                  <p className="settings-mono settings-break mcp-target">
                    {serverTarget({
                      transport: c.server.transport,
                      command: c.server.command ?? null,
                      url: c.server.url ?? null,
                    })}
                  </p>
                  {env.length > 0 && (
                    <p className="settings-hint">{t('mcp.import.envNames', { names: env.join(', ') })}</p>
                  )}
                  {headers.length > 0 && (
                    <p className="settings-hint">
                      {t('mcp.import.headerNames', { names: headers.join(', ') })}
                    </p>
                  )}
                  {c.questions.length > 0 && (
                    <p className="settings-hint">
                      {t('mcp.import.needs', { questions: c.questions.join(', ') })}
                    </p>
                  )}
                  {c.warnings.map((w) => (
                    <p key={w} className="mcp-warning" role="note">
                      {w}
                    </p>
                  ))}
                </li>
              );
            })}
          </ul>

          {needed.length > 0 && (
            <fieldset className="mcp-questions">
              <legend>{t('mcp.import.questions')}</legend>
              {preview.questions
                .filter((q) => needed.includes(q.id))
                .map((q) => {
                  const answer = answers[q.id] ?? { kind: 'text' as const, value: '' };
                  const setAnswer = (next: ImportAnswer) => setAnswers((a) => ({ ...a, [q.id]: next }));
                  return (
                    <div key={q.id} className="settings-field mcp-question">
                      <span className="mcp-label settings-mono">{q.id}</span>
                      {q.description && <p className="settings-hint">{q.description}</p>}
                      <div className="mcp-row">
                        <select
                          aria-label={t('mcp.import.answerKind', { id: q.id })}
                          value={answer.kind}
                          disabled={busy}
                          onChange={(e) => setAnswer({ kind: e.target.value as AnswerKind, value: '' })}
                        >
                          {ANSWER_KINDS.map((k) => (
                            <option key={k} value={k}>
                              {t(`mcp.value.kind.${k}`)}
                            </option>
                          ))}
                        </select>
                        <input
                          type={answer.kind === 'secret' ? 'password' : 'text'}
                          className={answer.kind === 'secret' ? 'key-input' : 'settings-mono'}
                          aria-label={t('mcp.import.answer', { id: q.id })}
                          value={answer.value}
                          disabled={busy}
                          autoComplete="off"
                          spellCheck="false"
                          placeholder={answer.kind === 'env' ? t('mcp.value.envPlaceholder') : ''}
                          onChange={(e) => setAnswer({ ...answer, value: e.target.value })}
                        />
                      </div>
                    </div>
                  );
                })}
            </fieldset>
          )}
          <div className="settings-actions">
            <button
              type="button"
              className="settings-button settings-button-primary"
              disabled={busy || chosen.length === 0}
              onClick={() => void confirm()}
            >
              {t('mcp.import.confirm', { count: String(chosen.length) })}
            </button>
          </div>
        </div>
      )}
      <div aria-live="polite">
        {done && (
          <p className="settings-success">
            {done.length === 0 ? t('mcp.import.doneNone') : t('mcp.import.done', { names: done.join(', ') })}
          </p>
        )}
      </div>
      {error && (
        <p className="settings-field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
