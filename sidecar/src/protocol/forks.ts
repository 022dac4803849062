import * as z from 'zod/mini';

/** Sub-agents (forks): child sessions that start from the parent's context and are gathered later. */

/** `queued` until the per-turn limit lets it start; then the status of its one turn. */
export const ForkStatus = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted']);
export type ForkStatus = z.infer<typeof ForkStatus>;

/** A fork as its parent sees it: `fork_id` is the fork's session id. */
export const ForkInfo = z.object({
  fork_id: z.string(),
  /** The parent's turn that spawned it. */
  turn_id: z.string(),
  task: z.string(),
  status: ForkStatus,
  /** The fork's final response (its last reply's text) once it completed; the error's message if it failed. */
  response: z.nullable(z.string()),
  created_at: z.string(),
});
export type ForkInfo = z.infer<typeof ForkInfo>;
