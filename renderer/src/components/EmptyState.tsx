import type { Project } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';

/** What an empty workspace teaches: open a folder, pick a recent project, or just chat. */
export function EmptyState(props: {
  projects: Project[];
  showProjects: boolean;
  onOpenProject(): void;
  onPickProject(id: string): void;
  onNewChat(): void;
}) {
  const t = useT();
  return (
    <div className="empty-state">
      {props.showProjects && (
        <>
          <h1>{t('empty.title')}</h1>
          <p className="muted">{t('empty.body')}</p>
          <button type="button" className="primary-button" onClick={props.onOpenProject}>
            {t('sidebar.openFolder')}
          </button>
          {props.projects.length > 0 && (
            <>
              <h2>{t('empty.recent')}</h2>
              <ul className="recent-projects">
                {props.projects.slice(0, 8).map((p) => (
                  <li key={p.id}>
                    <button type="button" className="link-button" onClick={() => props.onPickProject(p.id)}>
                      {p.name}
                    </button>{' '}
                    <span className="muted mono">{p.path}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <p>
        <button type="button" className="link-button" onClick={props.onNewChat}>
          {t('empty.chat')}
        </button>
      </p>
    </div>
  );
}
