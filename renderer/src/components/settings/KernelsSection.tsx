import { useCallback, useEffect, useId, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { KernelProviderKind, Project } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../state/session-controller';
import { KernelProviderForm } from './KernelProviderForm';
import { ProjectPythonRow } from './ProjectPythonRow';
import '../../i18n/messages/settings';

/**
 * Settings → Python kernels: each project's interpreter, and where kernels start. Not shown when the
 * server has no kernels (conversation-only).
 */
export function KernelsSection({ client }: { client: CairnClient }) {
  const t = useT();
  const id = useId();
  const [available, setAvailable] = useState<boolean | null>(null);
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [provider, setProvider] = useState<KernelProviderKind | null>(null);

  const load = useCallback(async () => {
    try {
      const capabilities = await client.capabilities();
      setAvailable(capabilities.kernels);
      if (!capabilities.kernels) return;
      setProjects(await client.listProjects());
      setLoadError(null);
    } catch (error) {
      setLoadError(messageOf(error));
    }
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const onSaved = useCallback((updated: Project) => {
    setProjects((list) => list?.map((p) => (p.id === updated.id ? updated : p)) ?? null);
  }, []);

  if (available === false) return null;
  return (
    <section className="settings-section kernels-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('settings.kernels.title')}</h2>
      <p className="settings-description">{t('settings.kernels.description')}</p>

      <h3 id={`${id}-projects`}>{t('settings.kernels.projects')}</h3>
      {provider === 'jupyter' && (
        <div className="settings-notice" role="note">
          <p>{t('settings.kernels.remoteNote')}</p>
        </div>
      )}
      {loadError && (
        <div className="settings-error" role="alert">
          <p>{t('settings.kernels.loadError', { message: loadError })}</p>
          <button type="button" className="settings-button" onClick={() => void load()}>
            {t('settings.kernels.retry')}
          </button>
        </div>
      )}
      {projects === null && !loadError && <p className="settings-muted">{t('settings.kernels.loading')}</p>}
      {projects?.length === 0 && <p className="settings-empty">{t('settings.kernels.noProjects')}</p>}
      {projects && projects.length > 0 && (
        <ul className="settings-list" aria-labelledby={`${id}-projects`}>
          {projects.map((project) => (
            <ProjectPythonRow key={project.id} project={project} client={client} onSaved={onSaved} />
          ))}
        </ul>
      )}

      {available && <KernelProviderForm client={client} onProvider={setProvider} />}
    </section>
  );
}
