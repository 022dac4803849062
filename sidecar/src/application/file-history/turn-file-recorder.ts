import type { TurnFilesRecorder } from '../../agent/agent-runtime';
import type { Logger } from '../../log/logger';
import type { Store } from '../../store/store';
import { MAX_FILES, TooManyFilesError } from '../../tools/snapshots/project-scanner';
import type { SnapshotStores } from '../../tools/snapshots/project-snapshots';

/** Why a turn's files could not be recorded, as its changes say it. */
export function notRecordedNote(error: unknown): string {
  if (error instanceof TooManyFilesError) {
    return `The project has more than ${MAX_FILES.toLocaleString('en-US')} files (not counting .git, node_modules and ignored ones), so Cairn does not record its files.`;
  }
  return `Cairn could not record the project's files: ${(error as Error).message}`;
}

/**
 * Records the project's files before each turn and as it ends, in the project's snapshot store. A fork's
 * turn records nothing of its own: what it changes belongs to its parent's turn.
 */
export class TurnFileRecorder implements TurnFilesRecorder {
  private readonly open = new Map<string, { projectId: string; root: string; before: string }>();

  constructor(private readonly deps: { store: Store; snapshots: SnapshotStores; logger: Logger }) {}

  async before(sessionId: string, turnId: string, root: string, signal: AbortSignal): Promise<void> {
    const { store, snapshots, logger } = this.deps;
    const session = store.sessions.get(sessionId);
    if (!session?.project_id || session.parent_session_id) return;
    try {
      const { tree } = await snapshots.of(session.project_id).record(root, signal);
      store.turnFiles.setBefore(turnId, tree);
      this.open.set(turnId, { projectId: session.project_id, root, before: tree });
    } catch (error) {
      if (signal.aborted) throw error;
      logger.warn("recording the project's files before a turn failed", { turn: turnId, error });
      store.turnFiles.setNote(turnId, notRecordedNote(error));
    }
  }

  async after(_sessionId: string, turnId: string): Promise<void> {
    const open = this.open.get(turnId);
    if (!open) return;
    this.open.delete(turnId);
    const { store, snapshots, logger } = this.deps;
    const project = snapshots.of(open.projectId);
    try {
      // Not cancellable: a cancelled turn's changes are recorded too.
      const { tree } = await project.record(open.root);
      store.turnFiles.setAfter(turnId, tree, (await project.changes(open.before, tree)).length);
    } catch (error) {
      logger.warn("recording the project's files after a turn failed", { turn: turnId, error });
      store.turnFiles.setNote(turnId, notRecordedNote(error));
    }
  }
}
