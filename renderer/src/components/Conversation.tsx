import { useVirtualizer } from '@tanstack/react-virtual';
import {
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createPortal } from 'react-dom';
import type { CairnClient, EventStream, StreamState } from '../../../sidecar/src/client';
import type { Project, Session } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { BackgroundController } from '../state/background-controller';
import type { KernelController } from '../state/kernel-controller';
import {
  loadingSnapshot,
  messageOf,
  SessionController,
  type SessionSnapshot,
} from '../state/session-controller';
import { useCompactNow } from '../state/use-compact-now';
import { useContextInfo } from '../state/use-context-info';
import { type FocusTurn, useFocusTurn } from '../state/use-focus-turn';
import { useSessionDetail } from '../state/use-session-detail';
import { useStableCallback } from '../state/use-stable-callback';
import { useTurnKeys } from '../state/use-turn-keys';
import { useWaiting } from '../state/use-waiting';
import { WaitingController } from '../state/waiting-controller';
import { Composer } from './Composer';
import { StepCells } from './code-mode/step-cell';
import type { ContextRequest } from './context/ContextPanel';
import { ForkBanner } from './forks/ForkBanner';
import { ForkTasks } from './forks/fork-tasks';
import { BackgroundPanel, ContextPanel, ExperiencesPanel, KernelPanel, McpSessionPanel } from './lazy-parts';
import { SessionHeader } from './SessionHeader';
import { SessionHasProject } from './session-project';
import { SessionLineage } from './sessions/SessionLineage';
import { SessionMenu } from './sessions/SessionMenu';
import { TurnRow } from './TurnRow';

const FOLLOW_THRESHOLD_PX = 80;
const noSubscribe = () => () => {};
const LOADING = loadingSnapshot('');
const beforeController = (): SessionSnapshot => LOADING;

/**
 * The open session: a virtualized reading column of turns, "Load earlier", and the composer. A fork's
 * conversation is read-only: a banner leads back to its parent, and nothing here starts work in it.
 */
export function Conversation(props: {
  client: CairnClient;
  stream: EventStream;
  session: Session;
  /** The session's project (its sandbox settings), null for a chat or while the projects load. */
  project?: Project | null;
  streamState: StreamState;
  modelName: string | null;
  onSessionChanged(): void;
  onOpenSettings(): void;
  onTogglePanel(): void;
  /** Opens the side panel (the context meter and a compaction's link show their section there). */
  onShowPanel?(): void;
  /** The server has Python kernels: keep the kernel panel's state. */
  kernels?: boolean;
  /** The server runs commands (not conversation-only): follow the session's background tasks. */
  backgroundTasks?: boolean;
  /** Where the side panel's content goes while it is open (null when closed). */
  panelTarget?: HTMLElement | null;
  /** Opens another session: a fork from its row, a fork's parent from its banner. */
  onOpenSession?(id: string): void;
  /** The parent's title, when this session is a fork and its parent is known. */
  parentTitle?: string | null;
  /** A turn to bring into view and highlight (a search hit, a "Branched from" link). */
  focusTurn?: FocusTurn | null;
  /** Opens a session at one of its turns (null: where it ends). */
  onOpenSessionAt?(sessionId: string, turnId: string | null): void;
  /** A session was branched from one of this one's turns: the app lists and opens it. */
  onBranched?(session: Session): void;
  /** Imports a chosen export file as a new session. */
  onImport?(file: File): void;
  /** Something the user asked for failed (branching, exporting): the app says so. */
  onError?(message: string): void;
}) {
  const t = useT();
  const parentId = props.session.parent_session_id;
  const readOnly = parentId !== null;
  const panelLoading = <p className="muted">{t('common.loading')}</p>;
  // Made in an effect, so StrictMode's second run of effects starts a fresh controller, not a disposed one;
  // a layout effect, so the session's first requests leave as it commits rather than a frame later.
  const [controller, setController] = useState<SessionController | null>(null);
  const [kernelController, setKernelController] = useState<KernelController | null>(null);
  const [background, setBackground] = useState<{
    calls: BackgroundController;
    waiting: WaitingController;
  } | null>(null);
  useLayoutEffect(() => {
    const created = new SessionController(props.client, props.stream, props.session.id);
    setController(created);
    void created.start();
    return () => created.dispose();
  }, [props.client, props.stream, props.session.id]);
  // Background tasks are followed from the session's start, so the panel shows whole tails when it opens,
  // and what waits for the user outside the running turn (a background script's approval) is counted.
  const backgroundEnabled = props.backgroundTasks ?? false;
  useEffect(() => {
    if (!controller || !backgroundEnabled) return;
    const calls = new BackgroundController(props.client, controller, controller.sessionId);
    const runningTurn = () => controller.getSnapshot().running?.turn.id ?? null;
    const waiting = new WaitingController(props.client, controller, controller.sessionId, runningTurn);
    setBackground({ calls, waiting });
    void controller.whenStarted().then(() => Promise.all([calls.start(), waiting.start()]));
    return () => {
      calls.dispose();
      waiting.dispose();
      setBackground(null);
    };
  }, [props.client, controller, backgroundEnabled]);
  const waiting = useWaiting(background?.waiting ?? null);
  const kernelsEnabled = props.kernels ?? false;
  useEffect(() => {
    if (!controller || !kernelsEnabled) return;
    let live = true;
    let created: KernelController | null = null;
    // Loaded once the first page is in (the kernels' state is not on the first screen). Its history is
    // read once the session's subscription is live, so no event falls between the two.
    void controller
      .whenStarted()
      .then(() => import('../state/kernel-controller'))
      .then(({ KernelController }) => {
        if (!live) return;
        const made = new KernelController(props.client, controller, controller.sessionId);
        created = made;
        setKernelController(made);
        void made.start();
      });
    return () => {
      live = false;
      created?.dispose();
      setKernelController(null);
    };
  }, [props.client, controller, kernelsEnabled]);
  const snapshot = useSyncExternalStore<SessionSnapshot>(
    controller?.subscribe ?? noSubscribe,
    controller?.getSnapshot ?? beforeController,
  );

  const forkTasks = useMemo(() => new Map(snapshot.forks.map((f) => [f.fork_id, f.task])), [snapshot.forks]);

  const context = useContextInfo(props.client, props.session.id, snapshot.loading ? null : controller, {
    units: false,
  });
  const compaction = useCompactNow(props.client, props.session.id, context.reload);
  // Where the side panel's context section was last asked to open: its overview, or one version.
  const [contextRequest, setContextRequest] = useState<ContextRequest | null>(null);
  const onShowPanel = props.onShowPanel;
  const showContext = useCallback(
    (version?: number) => {
      onShowPanel?.();
      setContextRequest((last) => ({
        ...(version !== undefined ? { version } : {}),
        nonce: (last?.nonce ?? 0) + 1,
      }));
    },
    [onShowPanel],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const turnKey = useTurnKeys(snapshot.turns);
  const virtualizer = useVirtualizer({
    count: snapshot.turns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 160,
    overscan: 4,
    getItemKey: turnKey,
  });

  const scrollToTurn = useCallback(
    (index: number) => virtualizer.scrollToIndex(index, { align: 'center' }),
    [virtualizer],
  );
  const highlighted = useFocusTurn(controller, snapshot, props.focusTurn ?? null, scrollToTurn, following);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_THRESHOLD_PX;
  }, []);

  // Follow the stream while the reader is at the bottom; leave them alone once they scroll up.
  const lastTurn = snapshot.turns.at(-1);
  // No turn renders until the first page is in place: at scroll offset 0 the page's oldest turns would
  // render first (their Markdown parsed), only to be dropped when the view moves to the newest.
  const [placed, setPlaced] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the newest turn changes
  useLayoutEffect(() => {
    if (snapshot.turns.length === 0) return;
    if (following.current) virtualizer.scrollToIndex(snapshot.turns.length - 1, { align: 'end' });
    if (placed) return;
    // The scroll event would tell the virtualizer where it now is, a frame later: tell it now.
    if (scrollRef.current) virtualizer.scrollOffset = scrollRef.current.scrollTop;
    setPlaced(true);
  }, [lastTurn, snapshot.turns.length]);

  const loadEarlier = async () => {
    const before = snapshot.turns.length;
    if (!controller) return;
    await controller.loadEarlier();
    const added = controller.getSnapshot().turns.length - before;
    if (added > 0) virtualizer.scrollToIndex(added, { align: 'start' });
  };

  const running = snapshot.running;
  // The sidebar's "running" dot comes from the session list: refresh it when a turn starts or ends here.
  const runningId = running?.turn.id ?? null;
  const onSessionChanged = props.onSessionChanged;
  const seenRunning = useRef<string | null>(null);
  useEffect(() => {
    if (runningId === seenRunning.current) return;
    seenRunning.current = runningId;
    onSessionChanged();
  }, [runningId, onSessionChanged]);

  // Branches and usage: read again as turns start and end, so the session's cost keeps up.
  const detail = useSessionDetail(props.client, props.session.id, runningId);
  const ordinals = useMemo(
    () => new Map(snapshot.turns.map((view) => [view.turn.id, view.turn.ordinal])),
    [snapshot.turns],
  );
  const onError = props.onError;
  const onBranched = props.onBranched;
  const sessionId = props.session.id;
  const client = props.client;
  const branchFrom = useCallback(
    async (turnId: string) => {
      try {
        onBranched?.(await client.branchSession(sessionId, turnId));
      } catch (error) {
        onError?.(t('branch.failed', { message: messageOf(error) }));
      }
    },
    [client, sessionId, onBranched, onError, t],
  );

  const onOpenSession = props.onOpenSession;
  const onOpenSessionAt = props.onOpenSessionAt;
  // The app writes these inline; the turns get stable ones, so they render only when they change.
  const openSettings = useStableCallback(props.onOpenSettings);
  const openSession = useStableCallback((id: string) => onOpenSession?.(id));
  const send = useStableCallback(async (prompt: string) => {
    following.current = true;
    await controller?.send(prompt);
    props.onSessionChanged();
  });
  const cancel = useStableCallback(async () => controller?.cancel());
  return (
    <SessionHasProject.Provider value={props.session.project_id !== null}>
      <ForkTasks.Provider value={forkTasks}>
        <section className="conversation" aria-label={props.session.title}>
          <SessionHeader
            client={props.client}
            session={props.session}
            project={props.project ?? null}
            streamState={props.streamState}
            modelName={props.modelName}
            onChanged={props.onSessionChanged}
            onTogglePanel={props.onTogglePanel}
            context={context.value}
            onOpenContext={() => showContext()}
            waiting={waiting.questions.length}
            readOnly={readOnly}
            running={runningId !== null}
            menu={
              props.onImport && (
                <SessionMenu
                  client={props.client}
                  session={props.session}
                  onImport={props.onImport}
                  onError={(message) => onError?.(message)}
                />
              )
            }
          />
          {onOpenSessionAt && (
            <SessionLineage
              client={props.client}
              session={props.session}
              detail={detail}
              ordinals={ordinals}
              onOpenAt={onOpenSessionAt}
            />
          )}
          {parentId !== null && (
            <ForkBanner
              parentTitle={props.parentTitle ?? null}
              onOpenParent={onOpenSession ? () => onOpenSession(parentId) : undefined}
            />
          )}
          <div className="transcript" ref={scrollRef} onScroll={onScroll} data-testid="transcript">
            <div className="transcript-inner">
              {snapshot.nextBefore !== null && (
                <div className="load-earlier">
                  <button type="button" onClick={() => void loadEarlier()} disabled={snapshot.loadingEarlier}>
                    {snapshot.loadingEarlier ? t('common.loading') : t('transcript.loadEarlier')}
                  </button>
                </div>
              )}
              {snapshot.loading && <p className="muted">{t('common.loading')}</p>}
              {!snapshot.loading && !snapshot.error && snapshot.turns.length === 0 && (
                <p className="muted transcript-empty">{t('transcript.empty')}</p>
              )}
              {snapshot.error && (
                <p className="error-text" role="alert">
                  {snapshot.error}
                </p>
              )}
              {/* Code steps find the kernel cell their call ran, for its images. */}
              <StepCells.Provider value={kernelController}>
                <div className="virtual-list" style={{ height: virtualizer.getTotalSize() }}>
                  {(placed ? virtualizer.getVirtualItems() : []).map((row) => {
                    const view = snapshot.turns[row.index]!;
                    return (
                      <div
                        key={row.key}
                        data-index={row.index}
                        ref={virtualizer.measureElement}
                        data-turn-id={view.turn.id}
                        className={`virtual-row${highlighted === view.turn.id ? ' turn-highlight' : ''}`}
                        style={{ transform: `translateY(${row.start}px)` }}
                      >
                        <TurnRow
                          view={view}
                          client={props.client}
                          controller={controller}
                          onOpenSettings={openSettings}
                          onViewVersion={showContext}
                          onOpenSession={onOpenSession ? openSession : undefined}
                          branchFrom={readOnly || !props.onBranched ? undefined : branchFrom}
                          revertDisabled={readOnly ? undefined : running !== null}
                          revertedOrdinal={ordinals.get(view.turn.reverted_turn_id ?? '')}
                        />
                      </div>
                    );
                  })}
                </div>
              </StepCells.Provider>
            </div>
          </div>
          {!readOnly && <Composer running={running !== null} onSend={send} onCancel={cancel} />}
          {controller &&
            props.panelTarget &&
            createPortal(
              // A boundary per part: one part loading later must not take the others back to the fallback
              // (Preact's Suspense would unmount them, and their effects would run again).
              <>
                <Suspense fallback={panelLoading}>
                  <ContextPanel
                    client={props.client}
                    sessionId={props.session.id}
                    events={controller}
                    info={context.value}
                    infoError={context.error}
                    compaction={compaction}
                    turnRunning={running !== null}
                    request={contextRequest}
                    readOnly={readOnly}
                  />
                </Suspense>
                <Suspense fallback={panelLoading}>
                  <ExperiencesPanel
                    client={props.client}
                    source={controller}
                    sessionId={props.session.id}
                    projectId={props.session.project_id}
                  />
                </Suspense>
                {background && (
                  <Suspense fallback={panelLoading}>
                    <BackgroundPanel controller={background.calls} waiting={background.waiting} />
                  </Suspense>
                )}
                {kernelController && (
                  <Suspense fallback={panelLoading}>
                    <McpSessionPanel
                      client={props.client}
                      source={controller}
                      sessionId={controller.sessionId}
                    />
                    <KernelPanel client={props.client} controller={kernelController} />
                  </Suspense>
                )}
              </>,
              props.panelTarget,
            )}
        </section>
      </ForkTasks.Provider>
    </SessionHasProject.Provider>
  );
}
