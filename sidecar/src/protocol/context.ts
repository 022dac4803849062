import * as z from 'zod/mini';
import { KernelVariable } from './kernels';

/** The shapes of context management: compaction levels, summaries, versions, units, experiences. */

export const CompactionLevel = z.enum(['block', 'loop', 'turn', 'session']);
export type CompactionLevel = z.infer<typeof CompactionLevel>;
export const CompactionReason = z.enum(['threshold', 'agent', 'user']);
export type CompactionReason = z.infer<typeof CompactionReason>;

/** A live kernel variable as a summary records it, so the agent still knows what is in memory. */
export const SummaryKernelVariable = z.extend(KernelVariable, { kernel: z.string() });
export type SummaryKernelVariable = z.infer<typeof SummaryKernelVariable>;

/** What a summary holds: the task's state, so that nothing finished is redone and nothing open is lost. */
export const StructuredSummary = z.object({
  goal: z.string(),
  instruction: z.string(),
  discoveries: z.array(z.string()),
  completed: z.array(z.string()),
  current_status: z.string(),
  likely_next_work: z.array(z.string()),
  relevant_files_directories: z.array(z.string()),
  remember: z.array(z.string()),
  /** The session's live kernel variables when a Turn or Session summary was written. */
  kernel_variables: z.optional(z.array(SummaryKernelVariable)),
});
export type StructuredSummary = z.infer<typeof StructuredSummary>;
export const SUMMARY_FIELDS = [
  'goal',
  'instruction',
  'discoveries',
  'completed',
  'current_status',
  'likely_next_work',
  'relevant_files_directories',
  'remember',
] as const;

/** One context version: what a compaction wrote (version 1 is the session's start: everything). */
export const ContextVersionInfo = z.object({
  number: z.number().check(z.int()),
  parent: z.nullable(z.number().check(z.int())),
  level: z.nullable(CompactionLevel),
  /** `initial`, why it was compacted (`threshold` | `agent` | `user`), `agent_edit` (memory) or `fork` (a fork's start). */
  reason: z.string(),
  turn_id: z.nullable(z.string()),
  tokens_before: z.nullable(z.number().check(z.int())),
  tokens_after: z.nullable(z.number().check(z.int())),
  /** The newest message when the version was written: the compaction sits after it in the conversation. */
  after_message_id: z.nullable(z.number().check(z.int())),
  /** The summary this compaction wrote, when it wrote one. */
  summary: z.nullable(StructuredSummary),
  created_at: z.string(),
});
export type ContextVersionInfo = z.infer<typeof ContextVersionInfo>;

/** What a unit of the context is now: kept as it was (`raw`), or replaced at a level. */
export const UnitLevel = z.enum(['raw', 'block', 'loop', 'turn', 'session']);
export type UnitLevel = z.infer<typeof UnitLevel>;

/** A piece of the next request's conversation, with a ref that stays the same until it is compacted. */
export const ContextUnit = z.object({
  ref: z.string(),
  level: UnitLevel,
  kind: z.enum(['message', 'tool_result', 'summary']),
  role: z.enum(['user', 'assistant']),
  tokens: z.number().check(z.int()),
  turn_id: z.nullable(z.string()),
  /** Protected units are never compacted automatically (the latest prompt, the current round, the tail). */
  protected: z.boolean(),
});
export type ContextUnit = z.infer<typeof ContextUnit>;

export const Experience = z.object({
  id: z.string(),
  scope: z.enum(['session', 'project']),
  session_id: z.nullable(z.string()),
  project_id: z.nullable(z.string()),
  text: z.string(),
  author: z.enum(['agent', 'user']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Experience = z.infer<typeof Experience>;
export const ExperienceScope = Experience.shape.scope;
export type ExperienceScope = z.infer<typeof ExperienceScope>;
