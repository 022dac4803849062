import { useRef, useState } from 'react';
import type { Project, Session } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { ConfirmDialog } from './ConfirmDialog';
import { focusOnMount } from './focus-on-mount';
import { ImportFileInput } from './sessions/ImportFileInput';

interface SidebarProps {
  projects: Project[];
  sessions: Session[];
  selectedId: string | null;
  showProjects: boolean;
  /** The server's host name when the backend is remote: projects are folders there. */
  remoteHost: string | null;
  onSelect(id: string): void;
  onOpenProject(): void;
  onNewSession(projectId: string | null): void;
  onRename(id: string, title: string): Promise<void>;
  onDeleteSession(id: string): Promise<void>;
  onDeleteProject(id: string): Promise<void>;
  onSettings(): void;
  /** "Import session…": brings a JSON export in as a new session. */
  onImport?(file: File): void;
}

type Pending = { kind: 'session'; session: Session } | { kind: 'project'; project: Project } | null;

/** Projects with their sessions, standalone chats, and settings. */
export function Sidebar(props: SidebarProps) {
  const t = useT();
  const [confirm, setConfirm] = useState<Pending>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const chats = props.sessions.filter((s) => s.project_id === null);

  const sessionRow = (session: Session) => (
    <li key={session.id} className={`session-row ${session.id === props.selectedId ? 'selected' : ''}`}>
      {renaming === session.id ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const title = new FormData(e.currentTarget).get('title');
            setRenaming(null);
            if (typeof title === 'string' && title.trim()) void props.onRename(session.id, title.trim());
          }}
        >
          <input
            name="title"
            aria-label={t('sidebar.renameSession')}
            defaultValue={session.title}
            ref={focusOnMount}
            onBlur={() => setRenaming(null)}
            onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
          />
        </form>
      ) : (
        <>
          <button
            type="button"
            className="session-link"
            aria-current={session.id === props.selectedId ? 'page' : undefined}
            onClick={() => props.onSelect(session.id)}
            onDoubleClick={() => setRenaming(session.id)}
          >
            {session.running_turn_id && <span className="running-dot" aria-hidden="true" />}
            {session.title}
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t('sidebar.renameSession')}
            title={t('sidebar.renameSession')}
            onClick={() => setRenaming(session.id)}
          >
            ✎
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t('sidebar.deleteSession')}
            title={t('sidebar.deleteSession')}
            onClick={() => setConfirm({ kind: 'session', session })}
          >
            ×
          </button>
        </>
      )}
    </li>
  );

  return (
    <nav className="sidebar" aria-label={t('sidebar.projects')}>
      {props.showProjects && (
        <section>
          <header className="sidebar-header">
            <h2>{t('sidebar.projects')}</h2>
            <button type="button" className="small-button" onClick={props.onOpenProject}>
              {t('sidebar.openFolder')}
            </button>
          </header>
          {props.remoteHost && (
            <p className="remote-marker" title={t('sidebar.remoteHint', { host: props.remoteHost })}>
              <span aria-hidden="true" className="remote-marker-icon">
                ⇄
              </span>
              {t('sidebar.onHost', { host: props.remoteHost })}
            </p>
          )}
          <ul className="project-list">
            {props.projects.map((project) => (
              <li key={project.id} className="project">
                <div className="project-row">
                  <span
                    className="project-name"
                    title={
                      props.remoteHost
                        ? t('sidebar.projectOnHost', { path: project.path, host: props.remoteHost })
                        : project.path
                    }
                  >
                    {project.name}
                  </span>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`${t('sidebar.newSession')}: ${project.name}`}
                    title={t('sidebar.newSession')}
                    onClick={() => props.onNewSession(project.id)}
                  >
                    +
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`${t('sidebar.deleteProject')}: ${project.name}`}
                    title={t('sidebar.deleteProject')}
                    onClick={() => setConfirm({ kind: 'project', project })}
                  >
                    ×
                  </button>
                </div>
                <ul className="session-list">
                  {props.sessions.filter((s) => s.project_id === project.id).map(sessionRow)}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section>
        <header className="sidebar-header">
          <h2>{t('sidebar.chats')}</h2>
          <button type="button" className="small-button" onClick={() => props.onNewSession(null)}>
            {t('sidebar.newChat')}
          </button>
        </header>
        <ul className="session-list">{chats.map(sessionRow)}</ul>
      </section>
      <footer className="sidebar-footer">
        <button type="button" className="small-button" onClick={props.onSettings}>
          ⚙ {t('sidebar.settings')}
        </button>
        {props.onImport && (
          <>
            <button type="button" className="small-button" onClick={() => importInput.current?.click()}>
              {t('session.import')}
            </button>
            <ImportFileInput inputRef={importInput} onImport={props.onImport} testId="sidebar-import-file" />
          </>
        )}
      </footer>
      {confirm && (
        <ConfirmDialog
          message={
            confirm.kind === 'session'
              ? t('sidebar.confirmDeleteSession', { title: confirm.session.title })
              : t('sidebar.confirmDeleteProject', { name: confirm.project.name })
          }
          confirmLabel={t('common.delete')}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const pending = confirm;
            setConfirm(null);
            if (pending.kind === 'session') void props.onDeleteSession(pending.session.id);
            else void props.onDeleteProject(pending.project.id);
          }}
        />
      )}
    </nav>
  );
}
