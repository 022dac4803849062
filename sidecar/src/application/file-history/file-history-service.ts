import { randomUUID } from 'node:crypto';
import type { AgentRuntime } from '../../agent/agent-runtime';
import { CairnError, notFound } from '../../errors';
import type { Logger } from '../../log/logger';
import type { FileChanges, RevertResult, RevertTurnRequest } from '../../protocol';
import type { Store } from '../../store/store';
import type { TurnFiles } from '../../store/turn-files-repo';
import { resolveProjectRoot } from '../../tools/project-root';
import type { ProjectSnapshots, SnapshotStores } from '../../tools/snapshots/project-snapshots';
import type { FileEntry, PathChange } from '../../tools/snapshots/snapshot-tree';
import { changedByOthers, planRevert } from './revert-conflicts';

const NOT_RECORDED =
  "Cairn did not record this turn's files: its session has no project folder, or the turn ran before Cairn recorded files.";

const TURN_RUNNING = 'A turn is running in this session; wait for it to end, or cancel it, and revert then.';

const sameEntry = (a: FileEntry | null, b: FileEntry | null) =>
  a === b || (a !== null && b !== null && a.kind === b.kind && a.id === b.id);

/** What turns changed in the project's files (each turn's, and a session's total), and undoing it. */
export class FileHistoryService {
  constructor(
    private readonly deps: {
      store: Store;
      snapshots: SnapshotStores;
      runtime: AgentRuntime;
      conversationOnly: boolean;
      logger: Logger;
    },
  ) {}

  /**
   * Deletes the recorded objects of the project that no turn uses any more (after a session was deleted), in
   * the background; a failure is logged, nothing else depends on it.
   */
  collectGarbage(projectId: string): Promise<void> {
    const { store, snapshots, logger } = this.deps;
    return snapshots
      .of(projectId)
      .collectGarbage(store.turnFiles.treesOfProject(projectId))
      .then(
        (removed) => {
          if (removed > 0)
            logger.info('removed recorded files no turn uses', { project: projectId, removed });
        },
        (error) => logger.warn('removing recorded files no turn uses failed', { project: projectId, error }),
      );
  }

  /** The files the turn changed: its recording before against the one as it ended. */
  async turnChanges(turnId: string): Promise<FileChanges> {
    const files = this.turnFiles(turnId);
    if (files.status === 'running') {
      return {
        changes: [],
        recorded: false,
        note: 'The turn is still running: its changes show when it ends.',
      };
    }
    if (!files.before || !files.after) {
      const note = files.before
        ? 'Cairn stopped while this turn ran, so what it changed was not recorded.'
        : (files.note ?? NOT_RECORDED);
      return { changes: [], recorded: false, note };
    }
    const project = this.snapshotsOf(files.sessionId);
    return {
      changes: await project.fileChanges(await project.changes(files.before, files.after)),
      recorded: true,
      note: null,
    };
  }

  /**
   * What the session's turns changed together: each file from before the first turn that changed it to as the
   * last one left it (a file only changed between turns is not the session's; an edit between two turns that
   * both changed the file is part of it).
   */
  async sessionChanges(sessionId: string): Promise<FileChanges> {
    const turns = this.deps.store.turnFiles.ofSession(sessionId);
    const recorded = turns.filter((t) => t.before && t.after);
    if (recorded.length === 0) {
      return { changes: [], recorded: false, note: turns.length === 0 ? null : NOT_RECORDED };
    }
    const project = this.snapshotsOf(sessionId);
    const first = new Map<string, FileEntry | null>();
    const last = new Map<string, FileEntry | null>();
    for (const turn of recorded) {
      for (const change of await project.changes(turn.before!, turn.after!)) {
        if (!first.has(change.path)) first.set(change.path, change.before);
        last.set(change.path, change.after);
      }
    }
    const net: PathChange[] = [...first]
      .map(([path, before]) => ({ path, before, after: last.get(path) ?? null }))
      .filter((c) => !sameEntry(c.before, c.after))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
    const skipped = turns.length - recorded.length;
    return {
      changes: await project.fileChanges(net),
      recorded: true,
      note:
        skipped > 0 ? `${skipped} of the session's turns have no recorded files and are not counted.` : null,
    };
  }

  /**
   * Restores the project's files to how they were before the turn, undoing it and every later turn of the
   * session. Files something other than those turns changed (see `changedByOthers`) are refused unless
   * `force`. The revert is itself a turn, so it can be reverted.
   */
  async revert(turnId: string, request: RevertTurnRequest): Promise<RevertResult> {
    const { store, runtime } = this.deps;
    const files = this.turnFiles(turnId);
    const sessionId = files.sessionId;
    const session = store.sessions.get(sessionId)!;
    if (session.parent_session_id) {
      throw new CairnError(
        'conflict',
        `Session ${sessionId} is a fork: what it changed belongs to its parent's turn. Revert that turn in session ${session.parent_session_id}.`,
      );
    }
    // Not while a turn runs in the folder: this session's would move the files under the restore, another
    // session's would take the restored files for its own changes.
    const busy = store.turns
      .allRunning()
      .find(
        (t) =>
          t.session_id === sessionId ||
          (session.project_id !== null &&
            store.sessions.get(t.session_id)?.project_id === session.project_id),
      );
    if (busy) {
      throw new CairnError(
        'turn_running',
        busy.session_id === sessionId
          ? TURN_RUNNING
          : `Session ${busy.session_id} is running a turn in this project; wait for it to end, or cancel it, and revert then.`,
      );
    }
    const target = files.before;
    if (!target) {
      throw new CairnError(
        'bad_request',
        `Turn ${files.ordinal} cannot be reverted: ${files.note ?? NOT_RECORDED}`,
      );
    }
    const root = this.projectRoot(sessionId);
    const project = this.snapshotsOf(sessionId);
    return runtime.whileIdle(
      sessionId,
      () =>
        project.exclusive(async () => {
          const now = (await project.scan(root)).tree;
          const changes = await project.changes(now, target);
          const others = await changedByOthers(
            project,
            store.turnFiles.ofSession(sessionId, files.ordinal),
            store.turnFiles.othersInProjectSince(session.project_id!, sessionId, files.createdAt),
            now,
          );
          const { conflicts, toApply } = await planRevert(project, root, changes, others);
          if (conflicts.length > 0 && !request.force) throw conflictError(conflicts);
          const result = await project.restore(root, target, toApply);
          const after = (await project.scan(root)).tree;
          const changed = (await project.changes(now, after)).length;
          return store.transaction(() => {
            const turn = store.turns.create(
              sessionId,
              `revert-${randomUUID()}`,
              `Restore files to before turn ${files.ordinal}`,
              turnId,
            );
            store.turnFiles.setBefore(turn.id, now);
            store.turnFiles.setAfter(turn.id, after, changed);
            store.turnFiles.setNotRestored(turn.id, result.notRestored);
            const done = store.turns.finish(turn.id, 'completed');
            store.events.append(sessionId, {
              type: 'files.reverted',
              turn_id: turn.id,
              ordinal: turn.ordinal,
              reverted_turn_id: turnId,
              restored: result.restored,
              not_restored: result.notRestored,
            });
            store.sessions.touch(sessionId);
            return { turn: done, restored: result.restored, not_restored: result.notRestored };
          });
        }),
      { activity: "is restoring its project's files", turnRunning: TURN_RUNNING },
    );
  }

  private turnFiles(turnId: string): TurnFiles {
    const files = this.deps.store.turnFiles.get(turnId);
    if (!files) throw notFound('Turn', turnId);
    return files;
  }

  private projectIdOf(sessionId: string): string {
    const projectId = this.deps.store.sessions.get(sessionId)?.project_id;
    if (!projectId) throw new CairnError('bad_request', NOT_RECORDED);
    return projectId;
  }

  private snapshotsOf(sessionId: string): ProjectSnapshots {
    return this.deps.snapshots.of(this.projectIdOf(sessionId));
  }

  private projectRoot(sessionId: string): string {
    if (this.deps.conversationOnly) {
      throw new CairnError(
        'conversation_only',
        'This server runs without project folders: there are no files to restore.',
      );
    }
    const project = this.deps.store.projects.get(this.projectIdOf(sessionId));
    if (!project) throw new CairnError('bad_request', NOT_RECORDED);
    return resolveProjectRoot(project.path);
  }
}

function conflictError(paths: string[]): CairnError {
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, and ${paths.length - 5} more` : '');
  const one = paths.length === 1;
  return new CairnError(
    'conflict',
    `${one ? 'A file was' : `${paths.length} files were`} changed by something other than the turns being undone (by you, another session, a background task, or while Cairn was stopped): ${shown}. Reverting would overwrite ${one ? 'that change' : 'those changes'}; revert with force to do it anyway.`,
    { details: { paths } },
  );
}
