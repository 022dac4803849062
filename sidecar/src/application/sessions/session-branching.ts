import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeOwnerOnlyDir, writeOwnerOnlyFile } from '../../config/owner-only-files';
import { badRequest, CairnError, notFound } from '../../errors';
import type { Session } from '../../protocol';
import { newId } from '../../store/ids';
import type { Store } from '../../store/store';
import type { ToolCallFiles } from '../../tools/tool-call-files';
import { realFileInside } from './real-file-inside';

/**
 * Branching: a new session in the same project whose history is the parent's up to and including one turn
 * (its turns, messages, tool calls with copies of their result files, questions, journal, the context
 * version HEAD then, session-scoped experiences and rules). Kernels are not copied: the branch's start fresh.
 */
export class SessionBranching {
  constructor(private readonly deps: { store: Store; files: ToolCallFiles }) {}

  branch(sessionId: string, turnId: string): Session {
    const { store, files } = this.deps;
    const parent = store.sessions.get(sessionId);
    if (!parent) throw notFound('Session', sessionId);
    if (parent.parent_session_id !== null) {
      throw badRequest(
        `Session ${sessionId} is a fork (a task its parent's turn ran): branch its parent session instead.`,
      );
    }
    const turn = store.turns.get(turnId);
    if (!turn || turn.session_id !== sessionId) throw notFound(`Turn of session ${sessionId}`, turnId);
    if (turn.status === 'running') {
      throw new CairnError(
        'turn_running',
        `Turn ${turnId} is still running: branch from it once it ends (or cancel it).`,
      );
    }
    const branchId = newId('ses');
    const parentResultsDir = files.sessionResultsDir(sessionId);
    const branchResultsDir = files.sessionResultsDir(branchId);
    // Files first, rows after: a branch whose copy failed leaves no rows pointing at missing files.
    try {
      this.copyFiles(
        parentResultsDir,
        branchResultsDir,
        store.sessionCopy.toolCallFoldersUpTo(sessionId, turn.ordinal),
      );
      store.transaction(() => {
        store.sessionCopy.branch({
          branchId,
          parentId: sessionId,
          turnId,
          title: `${parent.title} (branch)`,
          parentResultsDir,
          branchResultsDir,
        });
        this.copyArtifacts(branchId, sessionId);
      });
    } catch (error) {
      files.removeSession(branchId);
      throw error;
    }
    return store.sessions.get(branchId)!;
  }

  /** The images and other outputs the copied kernel cells show, as the branch's own (new ids, copied files). */
  private copyArtifacts(branchId: string, parentId: string): void {
    const { store, files } = this.deps;
    for (const artifact of store.sessionCopy.artifactsShown(branchId, parentId)) {
      // A file gone from disk, or one resolving outside the parent's folder (a symlink planted by code the
      // session ran), stays a dangling id: the artifact route and the export refuse it there too.
      const real = realFileInside(artifact.path, files.sessionDir(parentId));
      if (!real) continue;
      const id = `art_${randomBytes(12).toString('base64url')}`;
      const target = path.join(files.sessionDir(branchId), 'artifacts', id + path.extname(artifact.path));
      writeOwnerOnlyFile(target, fs.readFileSync(real));
      store.sessionCopy.addArtifactCopy(branchId, artifact.id, id, target);
    }
  }

  /** The copied calls' folders (result, status, MCP content) and the compacted blocks, under the same names. */
  private copyFiles(from: string, to: string, callIds: string[]): void {
    makeOwnerOnlyDir(to);
    for (const name of [...callIds, 'compacted']) {
      const source = path.join(from, name);
      // Links are skipped, not followed: a result folder holds Cairn's files, never a link to elsewhere.
      if (fs.existsSync(source) && !fs.lstatSync(source).isSymbolicLink()) {
        fs.cpSync(source, path.join(to, name), {
          recursive: true,
          filter: (file) => !fs.lstatSync(file).isSymbolicLink(),
        });
      }
    }
  }
}
