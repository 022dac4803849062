import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TurnFilesRecorder } from '../../agent/agent-runtime';
import type { Logger } from '../../log/logger';
import type { Store } from '../../store/store';
import { MAX_FILES, TooManyFilesError } from '../../tools/snapshots/project-scanner';
import type { SnapshotStores } from '../../tools/snapshots/project-snapshots';
import type { PathChange } from '../../tools/snapshots/snapshot-tree';

/** File times may lag or lead the clock by this much (and FAT keeps them to 2 s). */
const SLACK_MS = 2000;

/**
 * The changed paths whose modification time lies outside every one of the turn's tool calls: the turn cannot
 * have written them (the user did, or another program), so a revert treats them as someone else's. Removed
 * files have no time left and count as the turn's.
 */
async function changedOutside(
  root: string,
  changes: PathChange[],
  windows: { start: string; end: string | null }[],
): Promise<string[]> {
  const now = Date.now();
  const spans = windows.map((w) => [
    Date.parse(w.start) - SLACK_MS,
    (w.end ? Date.parse(w.end) : now) + SLACK_MS,
  ]);
  const outside: string[] = [];
  for (const change of changes) {
    if (!change.after) continue;
    const stat = await fsp.lstat(path.join(root, ...change.path.split('/'))).catch(() => null);
    if (stat && !spans.some(([from, to]) => stat.mtimeMs >= from! && stat.mtimeMs <= to!))
      outside.push(change.path);
  }
  return outside;
}

/** Why a turn's files could not be recorded, as its changes say it. */
export function notRecordedNote(error: unknown): string {
  if (error instanceof TooManyFilesError) {
    return `The project has more than ${MAX_FILES.toLocaleString('en-US')} files and folders (not counting .git, node_modules and ignored ones), so Cairn does not record its files.`;
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
      const changes = await project.changes(open.before, tree);
      const foreign = await changedOutside(open.root, changes, store.turnFiles.toolCallWindows(turnId));
      store.turnFiles.setAfter(turnId, tree, changes.length, foreign);
    } catch (error) {
      logger.warn("recording the project's files after a turn failed", { turn: turnId, error });
      store.turnFiles.setNote(turnId, notRecordedNote(error));
    }
  }
}
