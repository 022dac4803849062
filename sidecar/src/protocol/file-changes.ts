import * as z from 'zod/mini';
import { FileNotRestored, Turn } from './entities';

/** How a file differs between two recordings of the project. */
export const FileChangeStatus = z.enum(['added', 'modified', 'deleted']);
export type FileChangeStatus = z.infer<typeof FileChangeStatus>;

/** One file a turn (or a session) changed. */
export const FileChange = z.object({
  /** Relative to the project folder, `/`-separated. */
  path: z.string(),
  status: FileChangeStatus,
  /** A unified diff (`--- a/…`, `+++ b/…`, hunks); null for binary files and files too large to show. */
  diff: z.nullable(z.string()),
  binary: z.boolean(),
  /**
   * Too large to show as a diff. Files over the size Cairn keeps (see README) are recorded by size and time
   * only: a revert cannot bring their content back.
   */
  too_large: z._default(z.boolean(), false),
  /** Lines added and removed (0 for binary files and files too large to show). */
  additions: z._default(z.number().check(z.int()), 0),
  deletions: z._default(z.number().check(z.int()), 0),
});
export type FileChange = z.infer<typeof FileChange>;

/** `GET /api/turns/{id}/changes` and `GET /api/sessions/{id}/changes`. */
export const FileChanges = z.object({
  changes: z.array(FileChange),
  /** False when the files were not recorded (no project folder, the turn still running, too many files…). */
  recorded: z._default(z.boolean(), true),
  /** Why they were not recorded, or what was left out; null when there is nothing to say. */
  note: z._default(z.nullable(z.string()), null),
});
export type FileChanges = z.infer<typeof FileChanges>;

/** `POST /api/turns/{id}/revert`. */
export const RevertTurnRequest = z.strictObject({
  /** Restore even files changed since Cairn last recorded them (the user's own edits are overwritten). */
  force: z._default(z.boolean(), false),
});
export type RevertTurnRequest = z.infer<typeof RevertTurnRequest>;

/** What `POST /api/turns/{id}/revert` did: its own turn (revertable in turn), the files put back and not. */
export const RevertResult = z.object({
  turn: Turn,
  restored: z.array(z.string()),
  not_restored: z.array(FileNotRestored),
});
export type RevertResult = z.infer<typeof RevertResult>;
