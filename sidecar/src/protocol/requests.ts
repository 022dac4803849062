import { z } from 'zod';
import { ExperienceScope } from './context';
import { SessionMode } from './entities';
import { ApprovalMode, RememberScope, SandboxNetwork, SandboxSetting } from './permissions';

/** Request bodies and queries the API accepts. */

export const CreateProjectRequest = z.object({ path: z.string().min(1, 'path is required') });
export type CreateProjectRequest = z.infer<typeof CreateProjectRequest>;

/**
 * Changes a project's settings, at least one: `python_path` sets (an absolute path to a Python 3.9+
 * interpreter) or clears (null) its kernels' interpreter; `sandbox` and `sandbox_network` confine what runs.
 */
export const UpdateProjectRequest = z
  .strictObject({
    python_path: z
      .string({
        error: 'python_path is required: an absolute path to a Python interpreter, or null for the default',
      })
      .min(1, 'python_path must not be empty: send null to use the default interpreter')
      .max(4_096, 'python_path must be at most 4096 characters')
      .nullable()
      .optional(),
    sandbox: SandboxSetting.optional(),
    sandbox_network: SandboxNetwork.optional(),
  })
  .refine(
    (v) => v.python_path !== undefined || v.sandbox !== undefined || v.sandbox_network !== undefined,
    'give at least one of python_path, sandbox, sandbox_network',
  );
export type UpdateProjectRequest = z.infer<typeof UpdateProjectRequest>;

export const CreateSessionRequest = z.object({
  project_id: z.string().nullish(),
  title: z.string().min(1, 'title must not be empty').max(200).optional(),
  approval: ApprovalMode.optional(),
  /** `code` needs a project with kernels. */
  mode: SessionMode.optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const UpdateSessionRequest = z
  .object({
    title: z.string().min(1).max(200).optional(),
    approval: ApprovalMode.optional(),
    /** Refused (409) while a turn runs; `code` needs a project with kernels. */
    mode: SessionMode.optional(),
  })
  .refine(
    (v) => v.title !== undefined || v.approval !== undefined || v.mode !== undefined,
    'give title, approval or mode',
  );
export type UpdateSessionRequest = z.infer<typeof UpdateSessionRequest>;

export const ListSessionsQuery = z.object({
  project_id: z.string().optional(),
  /** Forks are child sessions, left out of the list unless asked for. */
  include_forks: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;

export const ContextInfoQuery = z.object({
  /** `false`: the size alone, with `units` empty (what a meter needs; a long session has thousands). */
  units: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v !== 'false'),
});
export type ContextInfoQuery = z.infer<typeof ContextInfoQuery>;

export const StartTurnRequest = z.object({
  prompt: z.string().min(1, 'prompt is required'),
  request_id: z.string().min(1, 'request_id is required').max(200),
});
export type StartTurnRequest = z.infer<typeof StartTurnRequest>;

export const ListTurnsQuery = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(30),
  before: z.coerce.number().int('before must be a turn ordinal').positive().optional(),
});
export type ListTurnsQuery = z.infer<typeof ListTurnsQuery>;

export const ListEventsQuery = z.object({
  after: z.coerce.number().int('after must be a sequence number').min(0).default(0),
  limit: z.coerce.number().int().min(1, 'limit must be between 1 and 10000').max(10_000).default(10_000),
  /** Only this turn's events (a client rebuilding a running turn after a reload). */
  turn_id: z.string().optional(),
  /** Only events whose type starts with this (`kernel.`); paging counts the matching events only. */
  type_prefix: z
    .string()
    .regex(
      /^[A-Za-z0-9_.]{1,64}$/,
      'type_prefix is 1 to 64 letters, digits, "_" or "." (the start of an event type, e.g. "kernel.")',
    )
    .optional(),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

/**
 * An answer; for an approval, `remember` also saves a rule (allow or deny, as answered) for the session, its
 * project or everywhere, with the card's suggested pattern or the user's edited `pattern` (null: any input).
 */
export const AnswerQuestionRequest = z.object({
  answer: z.string().min(1, 'answer is required'),
  remember: RememberScope.optional(),
  pattern: z
    .string()
    .trim()
    .min(1, 'pattern must not be empty: send null to match any input')
    .max(1_000)
    .nullable()
    .optional(),
});
export type AnswerQuestionRequest = z.infer<typeof AnswerQuestionRequest>;

const baseUrl = z
  .url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' })
  .nullish()
  .transform((v) => v ?? null);

/** Automatic compaction starts when the next request passes this fraction of the usable window. */
export const DEFAULT_COMPACT_THRESHOLD = 0.8;
const compactThreshold = z
  .number()
  .gt(0, 'compact_threshold must be more than 0 (or null to turn automatic compaction off)')
  .max(1, 'compact_threshold is a fraction of the usable window: at most 1')
  .nullable();

/** A price in US dollars per million tokens; null clears it. */
const price = (name: string) =>
  z.number().min(0, `${name} is a price per million tokens: 0 or more`).max(100_000).nullable();
const PRICES = {
  price_input: price('price_input').optional(),
  price_output: price('price_output').optional(),
  price_cache_read: price('price_cache_read').optional(),
  price_cache_write: price('price_cache_write').optional(),
};

export const CreateModelRequest = z
  .object({
    name: z.string().min(1).max(100),
    model: z.string().min(1).max(200),
    base_url: baseUrl,
    context_window: z.number().int().min(1024).default(200_000),
    max_tokens: z.number().int().min(1).default(8192),
    thinking_budget: z.number().int().min(1024).nullish(),
    compact_threshold: compactThreshold.default(DEFAULT_COMPACT_THRESHOLD),
    ...PRICES,
  })
  .refine((m) => m.thinking_budget == null || m.thinking_budget < m.max_tokens, {
    message: 'thinking_budget must be smaller than max_tokens',
    path: ['thinking_budget'],
  });
export type CreateModelRequest = z.infer<typeof CreateModelRequest>;

export const UpdateModelRequest = z.object({
  name: z.string().min(1).max(100).optional(),
  model: z.string().min(1).max(200).optional(),
  base_url: z
    .url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' })
    .nullable()
    .optional(),
  context_window: z.number().int().min(1024).optional(),
  max_tokens: z.number().int().min(1).optional(),
  thinking_budget: z.number().int().min(1024).nullable().optional(),
  compact_threshold: compactThreshold.optional(),
  ...PRICES,
});
export type UpdateModelRequest = z.infer<typeof UpdateModelRequest>;

export const SetModelKeyRequest = z.object({ key: z.string().min(1, 'key is required') });

export const CompactRequest = z.object({
  level: z.enum(['block', 'loop', 'turn', 'session', 'auto']).optional(),
});
export type CompactRequest = z.infer<typeof CompactRequest>;

/** Paging what the model saw at a version: newest messages first, `before` an index from the last page. */
export const ContextVersionQuery = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(30),
  before: z.coerce.number().int('before must be a message index').min(0).optional(),
});
export type ContextVersionQuery = z.infer<typeof ContextVersionQuery>;

const experienceText = z
  .string()
  .trim()
  .min(1, 'text is required')
  .max(4000, 'text is at most 4000 characters');
export const CreateExperienceRequest = z.object({ text: experienceText, scope: ExperienceScope.optional() });
export type CreateExperienceRequest = z.infer<typeof CreateExperienceRequest>;
export const UpdateExperienceRequest = z.object({
  text: experienceText.optional(),
  scope: ExperienceScope.optional(),
  /** Needed to move a project experience into a session's scope. */
  session_id: z.string().optional(),
});
export type UpdateExperienceRequest = z.infer<typeof UpdateExperienceRequest>;
