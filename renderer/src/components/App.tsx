import { Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type Backend, CairnClient, EventStream, type StreamState } from '../../../sidecar/src/client';
import type { SearchHit, Session } from '../../../sidecar/src/protocol';
import { backendHost, type Desktop, forgetBackend, type ResolvedBackend } from '../api/connection';
import { useT } from '../i18n/i18n';
import { BackendReconnector } from '../state/backend-reconnector';
import { useAsync } from '../state/use-async';
import type { FocusTurn } from '../state/use-focus-turn';
import { useImportSession } from '../state/use-import-session';
import { useOpenSession } from '../state/use-open-session';
import { Conversation } from './Conversation';
import { EmptyState } from './EmptyState';
import { OpenProjectDialog, SearchDialog, SessionSwitcher, SettingsPage } from './lazy-parts';
import { Sidebar } from './Sidebar';
import type { SearchScopeKind } from './sessions/SearchDialog';

/** Set by Vite from package.json at build time. */
export const APP_VERSION: string = __APP_VERSION__;

export interface AppProps {
  backend: Backend;
  /** Inside the desktop app: the bridge and what it said about this backend; null in a browser. */
  desktop: Desktop | null;
  /** Leaves this backend: the connection screen in a browser, asking the host again in the desktop app. */
  onDisconnect(): void;
  /** The desktop host has another backend now (it restarted the sidecar): talk to that one. */
  onBackendChanged(next: ResolvedBackend): void;
  /** The desktop host gave up on its backend. */
  onBackendLost(message: string): void;
}

/**
 * The workspace: sidebar, the open session (or settings), banners and keyboard shortcuts. A new
 * `backend` swaps the client and the event stream underneath while the view (selected session, settings)
 * stays as it is.
 */
export function App({ backend, desktop, onDisconnect, onBackendChanged, onBackendLost }: AppProps) {
  const t = useT();
  const client = useMemo(() => new CairnClient(backend), [backend]);
  // Made in an effect, not during render, so React's double-invoked effects (StrictMode) get a live one.
  // Kept with its backend, so a conversation never pairs the new client with the old stream.
  const [live, setLive] = useState<{ backend: Backend; stream: EventStream } | null>(null);
  const [streamState, setStreamState] = useState<StreamState>('connecting');
  useEffect(() => {
    const created = new EventStream(backend);
    setLive({ backend, stream: created });
    const off = created.onState(setStreamState);
    return () => {
      off();
      created.close();
    };
  }, [backend]);
  const stream = live?.backend === backend ? live.stream : null;

  // In the desktop app, a stream that drops or is refused may mean a restarted sidecar: ask the host.
  const [reconnecting, setReconnecting] = useState(false);
  const reconnector = useRef<BackendReconnector | null>(null);
  const bridge = desktop?.bridge ?? null;
  useEffect(() => {
    if (!stream || !bridge) return;
    const created = new BackendReconnector({
      bridge,
      current: backend,
      onChanged: (info) =>
        onBackendChanged({ backend: { url: info.url, token: info.token }, desktop: { bridge, info } }),
      onLost: onBackendLost,
      onAsking: setReconnecting,
    });
    reconnector.current = created;
    const off = stream.onState((state) => created.streamStateChanged(state));
    return () => {
      off();
      created.dispose();
      reconnector.current = null;
      setReconnecting(false);
    };
  }, [stream, bridge, backend, onBackendChanged, onBackendLost]);

  const caps = useAsync(() => client.capabilities(), [client]);
  const projects = useAsync(() => client.listProjects().catch(() => []), [client]);
  const sessions = useAsync(() => client.listSessions(), [client]);
  const models = useAsync(() => client.modelStatus(), [client]);
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<'chat' | 'settings'>('chat');
  const [switcherOpen, setSwitcherOpen] = useState(false);
  // Ctrl/Cmd+Shift+F searches every session, Ctrl/Cmd+F the open one.
  const [searchScope, setSearchScope] = useState<SearchScopeKind | null>(null);
  // A turn to show in the session being opened (from a search hit or a "Branched from" link).
  const [focus, setFocus] = useState<(FocusTurn & { sessionId: string }) | null>(null);
  const [openingProject, setOpeningProject] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const showPanel = useCallback(() => setPanelOpen(true), []);
  // The open session draws its kernel panel here (a portal), so the panel shares its event subscription.
  const [panelTarget, setPanelTarget] = useState<HTMLElement | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Back to the connection screen, forgetting a token the server no longer takes. */
  const leave = () => {
    forgetBackend();
    onDisconnect();
  };

  const refresh = useCallback(() => {
    projects.reload();
    sessions.reload();
  }, [projects.reload, sessions.reload]);

  const createSession = useCallback(
    async (projectId: string | null) => {
      try {
        const session = await client.createSession({ project_id: projectId });
        refresh();
        setSelected(session.id);
        setView('chat');
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    },
    [client, refresh],
  );

  const currentSession: Session | null = useOpenSession(client, sessions.value, selected);
  const parentId = currentSession?.parent_session_id ?? null;
  const parentTitle = sessions.value?.find((s) => s.id === parentId)?.title ?? null;
  const openSession = useCallback((id: string) => {
    setSelected(id);
    setView('chat');
  }, []);
  const openSessionAt = useCallback(
    (id: string, turnId: string | null) => {
      openSession(id);
      setFocus((last) => (turnId ? { sessionId: id, turnId, nonce: (last?.nonce ?? 0) + 1 } : null));
    },
    [openSession],
  );
  const pickHit = (hit: SearchHit) => {
    setSearchScope(null);
    openSessionAt(hit.session_id, hit.turn_id);
    // A user's own kernel cell belongs to no turn: it is in the kernel panel.
    if (hit.turn_id === null && hit.kind === 'kernel_cell') setPanelOpen(true);
  };
  // A branched or imported session: list it and open it.
  const opened = useCallback(
    (session: Session) => {
      refresh();
      openSession(session.id);
    },
    [refresh, openSession],
  );
  const importFile = useImportSession(client, currentSession?.project_id ?? null, t, opened, setError);
  const sessionOpen = currentSession !== null && view === 'chat';

  // A layout effect, so the shortcuts work from the first paint rather than a moment after it.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (!mod) return;
      const key = event.key.toLowerCase();
      if (key === 'f' && (event.shiftKey || sessionOpen)) {
        // Only with a session open does plain Ctrl/Cmd+F leave the browser's own find for ours.
        event.preventDefault();
        setSearchScope(event.shiftKey ? 'all' : 'session');
      } else if (key === 'k') {
        event.preventDefault();
        setSwitcherOpen(true);
      } else if (key === ',') {
        event.preventDefault();
        setView('settings');
      } else if (key === 'j') {
        event.preventDefault();
        setPanelOpen((open) => !open);
      } else if (key === 'n') {
        event.preventDefault();
        void createSession(currentSession?.project_id ?? null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [createSession, currentSession, sessionOpen]);

  const noKey =
    models.value !== null &&
    !models.value.env_overrides.key &&
    !models.value.models.some((m) => m.active && m.has_key);
  const showProjects = caps.value?.projects ?? false;
  // Projects are folders on the machine that runs the sidecar: say which one when it is not this one.
  const remote = desktop ? desktop.info.mode === 'remote' : caps.value?.mode === 'remote';
  const remoteHost = remote ? backendHost(backend.url) : null;
  const activeModel = models.value?.models.find((m) => m.active) ?? null;
  const modelName = models.value?.env_overrides.model ?? activeModel?.name ?? null;

  return (
    <div className={`app ${panelOpen ? 'with-panel' : ''}`}>
      <Sidebar
        projects={showProjects ? (projects.value ?? []) : []}
        sessions={sessions.value ?? []}
        // A fork is not listed: its parent stays marked while it is open.
        selectedId={parentId ?? selected}
        showProjects={showProjects}
        remoteHost={remoteHost}
        onSelect={openSession}
        onOpenProject={() => setOpeningProject(true)}
        onNewSession={(projectId) => void createSession(projectId)}
        onRename={async (id, title) => {
          await client.updateSession(id, { title });
          sessions.reload();
        }}
        onDeleteSession={async (id) => {
          await client.deleteSession(id);
          if (selected === id) setSelected(null);
          refresh();
        }}
        onDeleteProject={async (id) => {
          await client.deleteProject(id);
          refresh();
        }}
        onSettings={() => setView('settings')}
        onImport={(file) => void importFile(file)}
      />
      <main className="main">
        {(streamState === 'down' || (streamState === 'rejected' && reconnecting)) && (
          <div className="banner banner-warning" role="status">
            {t('banner.disconnected')}{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                stream?.reconnectNow();
                reconnector.current?.askNow();
              }}
            >
              {t('banner.reconnect')}
            </button>
          </div>
        )}
        {streamState === 'rejected' && !reconnecting && (
          <div className="banner banner-danger" role="alert">
            {t('banner.tokenRejected')}{' '}
            {desktop ? (
              <button type="button" className="link-button" onClick={() => setView('settings')}>
                {t('banner.openSettings')}
              </button>
            ) : (
              <button type="button" className="link-button" onClick={leave}>
                {t('banner.enterToken')}
              </button>
            )}
          </div>
        )}
        {caps.error && (
          <div className="banner banner-danger" role="alert">
            {caps.error}{' '}
            <button type="button" className="link-button" onClick={leave}>
              {t('banner.reconnect')}
            </button>
          </div>
        )}
        {noKey && view === 'chat' && (
          <div className="banner" role="status">
            {t('banner.noKey')}{' '}
            <button type="button" className="link-button" onClick={() => setView('settings')}>
              {t('banner.openSettings')}
            </button>
          </div>
        )}
        {error && (
          <div className="banner banner-danger" role="alert">
            {t('common.error', { message: error })}{' '}
            <button type="button" className="link-button" onClick={() => setError(null)}>
              {t('common.close')}
            </button>
          </div>
        )}
        {view === 'settings' ? (
          <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
            <SettingsPage
              client={client}
              backend={backend}
              desktop={desktop}
              remote={remote}
              appVersion={APP_VERSION}
              onClose={() => {
                models.reload();
                // Settings may have changed a project's sandbox, which the session header shows.
                projects.reload();
                setView('chat');
              }}
            />
          </Suspense>
        ) : currentSession ? (
          // While the backend is being swapped there is no stream for one render; the session stays chosen.
          stream && (
            <Conversation
              key={currentSession.id}
              client={client}
              stream={stream}
              session={currentSession}
              project={projects.value?.find((p) => p.id === currentSession.project_id) ?? null}
              streamState={streamState}
              modelName={modelName}
              onSessionChanged={() => sessions.reload()}
              onOpenSettings={() => setView('settings')}
              onTogglePanel={() => setPanelOpen((open) => !open)}
              onShowPanel={showPanel}
              kernels={caps.value?.kernels ?? false}
              backgroundTasks={caps.value?.shell ?? false}
              panelTarget={panelOpen ? panelTarget : null}
              onOpenSession={openSession}
              parentTitle={parentTitle}
              focusTurn={focus?.sessionId === currentSession.id ? focus : null}
              onOpenSessionAt={openSessionAt}
              onBranched={opened}
              onImport={(file) => void importFile(file)}
              onError={setError}
            />
          )
        ) : (
          <EmptyState
            projects={showProjects ? (projects.value ?? []) : []}
            showProjects={showProjects}
            onOpenProject={() => setOpeningProject(true)}
            onPickProject={(id) => void createSession(id)}
            onNewChat={() => void createSession(null)}
          />
        )}
      </main>
      {panelOpen && (
        <aside className="side-panel" aria-label={t('panel.toggle')}>
          {currentSession && view === 'chat' ? (
            <div className="side-panel-content" ref={setPanelTarget} />
          ) : (
            <p className="muted">{t('panel.empty')}</p>
          )}
        </aside>
      )}
      {/* Dialogs load when first opened; nothing shows for the few milliseconds that takes. */}
      <Suspense fallback={null}>
        {openingProject && (
          <OpenProjectDialog
            client={client}
            remote={remote}
            remoteHost={remoteHost}
            onClose={() => setOpeningProject(false)}
            onOpened={(project) => {
              setOpeningProject(false);
              refresh();
              void createSession(project.id);
            }}
          />
        )}
        {searchScope && (
          <SearchDialog
            client={client}
            session={sessionOpen ? currentSession : null}
            initialScope={searchScope}
            onPick={pickHit}
            onClose={() => setSearchScope(null)}
          />
        )}
        {switcherOpen && (
          <SessionSwitcher
            sessions={sessions.value ?? []}
            projects={projects.value ?? []}
            onPick={(id) => {
              setSelected(id);
              setView('chat');
              setSwitcherOpen(false);
            }}
            onClose={() => setSwitcherOpen(false)}
          />
        )}
      </Suspense>
    </div>
  );
}
