import * as z from 'zod/mini';
import { SessionMode, TurnWithDetails } from './entities';
import { ApprovalMode } from './permissions';

/** `POST /api/sessions/{id}/branch`: a new session whose history is the parent's up to and including this turn. */
export const BranchSessionRequest = z.object({
  turn_id: z.string().check(z.minLength(1, 'turn_id is required')),
});
export type BranchSessionRequest = z.infer<typeof BranchSessionRequest>;

export const ExportFormat = z.enum(['md', 'json']);
export type ExportFormat = z.infer<typeof ExportFormat>;
export const ExportSessionQuery = z.object({ format: z._default(ExportFormat, 'md') });

/** `POST /api/sessions/import?project_id=`: where the imported session goes (no project without it). */
export const ImportSessionQuery = z.object({ project_id: z.optional(z.string().check(z.minLength(1))) });

/** A kernel's saved rich output, carried inside an export. */
export const ExportedArtifact = z.object({
  id: z.string(),
  kernel: z.string(),
  execution_id: z.nullable(z.string()),
  mime: z.string(),
  data_base64: z.string(),
});
export type ExportedArtifact = z.infer<typeof ExportedArtifact>;

/**
 * `GET /api/sessions/{id}/export?format=json`, and what `POST /api/sessions/import` takes back: the
 * session, its turns with messages, tool calls and questions, each call's full result, the kernels'
 * artifacts, and the journal as JSON lines.
 */
export const SessionExport = z.object({
  format: z.literal('cairn.session'),
  version: z.literal(1),
  exported_at: z.string(),
  cairn_version: z.string(),
  session: z.object({
    id: z.string(),
    title: z.string(),
    approval: ApprovalMode,
    mode: z._default(SessionMode, 'tools'),
    created_at: z.string(),
    branched_from: z._default(z.nullable(z.object({ session_id: z.string(), turn_id: z.string() })), null),
  }),
  turns: z.array(TurnWithDetails),
  /** Tool call id → its full result (what the result file held), for calls that have one. */
  tool_results: z._default(z.record(z.string(), z.string()), {}),
  artifacts: z._default(z.array(ExportedArtifact), []),
  /** The session's journal, one event per line. */
  events: z._default(z.string(), ''),
});
export type SessionExport = z.infer<typeof SessionExport>;
