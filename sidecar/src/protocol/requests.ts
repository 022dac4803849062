import * as z from 'zod/mini';
import { ExperienceScope } from './context';
import { SessionMode } from './entities';
import { pageLimit } from './page-limit';
import { ApprovalMode, RememberScope, SandboxNetwork, SandboxSetting } from './permissions';

/** Request bodies and queries the API accepts. */

export const CreateProjectRequest = z.object({ path: z.string().check(z.minLength(1, 'path is required')) });
export type CreateProjectRequest = z.infer<typeof CreateProjectRequest>;

/**
 * Changes a project's settings, at least one: `python_path` sets (an absolute path to a Python 3.9+
 * interpreter) or clears (null) its kernels' interpreter; `sandbox` and `sandbox_network` confine what runs.
 */
export const UpdateProjectRequest = z
  .strictObject({
    python_path: z.optional(
      z.nullable(
        z
          .string({
            error:
              'python_path is required: an absolute path to a Python interpreter, or null for the default',
          })
          .check(
            z.minLength(1, 'python_path must not be empty: send null to use the default interpreter'),
            z.maxLength(4_096, 'python_path must be at most 4096 characters'),
          ),
      ),
    ),
    sandbox: z.optional(SandboxSetting),
    sandbox_network: z.optional(SandboxNetwork),
  })
  .check(
    z.refine(
      (v) => v.python_path !== undefined || v.sandbox !== undefined || v.sandbox_network !== undefined,
      'give at least one of python_path, sandbox, sandbox_network',
    ),
  );
export type UpdateProjectRequest = z.infer<typeof UpdateProjectRequest>;

export const CreateSessionRequest = z.object({
  project_id: z.nullish(z.string()),
  title: z.optional(z.string().check(z.minLength(1, 'title must not be empty'), z.maxLength(200))),
  approval: z.optional(ApprovalMode),
  /** `code` needs a project with kernels. */
  mode: z.optional(SessionMode),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const UpdateSessionRequest = z
  .object({
    title: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    approval: z.optional(ApprovalMode),
    /** Refused (409) while a turn runs; `code` needs a project with kernels. */
    mode: z.optional(SessionMode),
  })
  .check(
    z.refine(
      (v) => v.title !== undefined || v.approval !== undefined || v.mode !== undefined,
      'give title, approval or mode',
    ),
  );
export type UpdateSessionRequest = z.infer<typeof UpdateSessionRequest>;

export const ListSessionsQuery = z.object({
  project_id: z.optional(z.string()),
  /** Forks are child sessions, left out of the list unless asked for. */
  include_forks: z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((v) => v === 'true'),
  ),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;

export const ContextInfoQuery = z.object({
  /** `false`: the size alone, with `units` empty (what a meter needs; a long session has thousands). */
  units: z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((v) => v !== 'false'),
  ),
});
export type ContextInfoQuery = z.infer<typeof ContextInfoQuery>;

export const StartTurnRequest = z.object({
  prompt: z.string().check(z.minLength(1, 'prompt is required')),
  request_id: z.string().check(z.minLength(1, 'request_id is required'), z.maxLength(200)),
});
export type StartTurnRequest = z.infer<typeof StartTurnRequest>;

export const ListTurnsQuery = z.object({
  limit: pageLimit(200, 30),
  before: z.optional(z.coerce.number().check(z.int('before must be a turn ordinal'), z.positive())),
});
export type ListTurnsQuery = z.infer<typeof ListTurnsQuery>;

export const ListEventsQuery = z.object({
  after: z._default(z.coerce.number().check(z.int('after must be a sequence number'), z.gte(0)), 0),
  limit: z._default(
    z.coerce.number().check(z.int(), z.gte(1, 'limit must be between 1 and 10000'), z.lte(10_000)),
    10_000,
  ),
  /** Only this turn's events (a client rebuilding a running turn after a reload). */
  turn_id: z.optional(z.string()),
  /** Only events whose type starts with this (`kernel.`); paging counts the matching events only. */
  type_prefix: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^[A-Za-z0-9_.]{1,64}$/,
          'type_prefix is 1 to 64 letters, digits, "_" or "." (the start of an event type, e.g. "kernel.")',
        ),
      ),
  ),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

/**
 * An answer; an elicitation is answered "accept" (with `content`), "decline" or "cancel"; for an approval, `remember` also saves a rule (allow or deny, as answered) for the session, its
 * project or everywhere, with the card's suggested pattern or the user's edited `pattern` (null: any input).
 */
export const AnswerQuestionRequest = z.object({
  answer: z.string().check(z.minLength(1, 'answer is required')),
  /** For an elicitation answered "accept": the form's values by field name. */
  content: z.optional(z.record(z.string(), z.unknown())),
  remember: z.optional(RememberScope),
  pattern: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, 'pattern must not be empty: send null to match any input'),
          z.maxLength(1_000),
        ),
    ),
  ),
});
export type AnswerQuestionRequest = z.infer<typeof AnswerQuestionRequest>;

const baseUrl = z.pipe(
  z.nullish(z.url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' })),
  z.transform((v) => v ?? null),
);

/** Automatic compaction starts when the next request passes this fraction of the usable window. */
export const DEFAULT_COMPACT_THRESHOLD = 0.8;
const compactThreshold = z.nullable(
  z
    .number()
    .check(
      z.gt(0, 'compact_threshold must be more than 0 (or null to turn automatic compaction off)'),
      z.lte(1, 'compact_threshold is a fraction of the usable window: at most 1'),
    ),
);

/** A price in US dollars per million tokens; null clears it. */
const price = (name: string) =>
  z.nullable(z.number().check(z.gte(0, `${name} is a price per million tokens: 0 or more`), z.lte(100_000)));
const PRICES = {
  price_input: z.optional(price('price_input')),
  price_output: z.optional(price('price_output')),
  price_cache_read: z.optional(price('price_cache_read')),
  price_cache_write: z.optional(price('price_cache_write')),
};

export const CreateModelRequest = z
  .object({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    model: z.string().check(z.minLength(1), z.maxLength(200)),
    base_url: baseUrl,
    context_window: z._default(z.number().check(z.int(), z.gte(1024)), 200_000),
    max_tokens: z._default(z.number().check(z.int(), z.gte(1)), 8192),
    thinking_budget: z.nullish(z.number().check(z.int(), z.gte(1024))),
    compact_threshold: z._default(compactThreshold, DEFAULT_COMPACT_THRESHOLD),
    ...PRICES,
  })
  .check(
    z.refine((m) => m.thinking_budget == null || m.thinking_budget < m.max_tokens, {
      message: 'thinking_budget must be smaller than max_tokens',
      path: ['thinking_budget'],
    }),
  );
export type CreateModelRequest = z.infer<typeof CreateModelRequest>;

export const UpdateModelRequest = z.object({
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  model: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  base_url: z.optional(z.nullable(z.url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' }))),
  context_window: z.optional(z.number().check(z.int(), z.gte(1024))),
  max_tokens: z.optional(z.number().check(z.int(), z.gte(1))),
  thinking_budget: z.optional(z.nullable(z.number().check(z.int(), z.gte(1024)))),
  compact_threshold: z.optional(compactThreshold),
  ...PRICES,
});
export type UpdateModelRequest = z.infer<typeof UpdateModelRequest>;

export const SetModelKeyRequest = z.object({ key: z.string().check(z.minLength(1, 'key is required')) });

export const CompactRequest = z.object({
  level: z.optional(z.enum(['block', 'loop', 'turn', 'session', 'auto'])),
});
export type CompactRequest = z.infer<typeof CompactRequest>;

/** Paging what the model saw at a version: newest messages first, `before` an index from the last page. */
export const ContextVersionQuery = z.object({
  limit: pageLimit(200, 30),
  before: z.optional(z.coerce.number().check(z.int('before must be a message index'), z.gte(0))),
});
export type ContextVersionQuery = z.infer<typeof ContextVersionQuery>;

const experienceText = z
  .string()
  .check(z.trim(), z.minLength(1, 'text is required'), z.maxLength(4000, 'text is at most 4000 characters'));
export const CreateExperienceRequest = z.object({ text: experienceText, scope: z.optional(ExperienceScope) });
export type CreateExperienceRequest = z.infer<typeof CreateExperienceRequest>;
export const UpdateExperienceRequest = z.object({
  text: z.optional(experienceText),
  scope: z.optional(ExperienceScope),
  /** Needed to move a project experience into a session's scope. */
  session_id: z.optional(z.string()),
});
export type UpdateExperienceRequest = z.infer<typeof UpdateExperienceRequest>;
