import * as z from 'zod/mini';
import { ContextUnit, ContextVersionInfo, Experience } from './context';
import { ContentBlock, ModelConfig, Project, Question, Session, TurnWithDetails, Usage } from './entities';
import { CairnEvent } from './events';
import { ForkInfo } from './forks';

/** Response bodies that wrap entities: lists are named after their route. */

export const ProjectList = z.object({ projects: z.array(Project) });
export type ProjectList = z.infer<typeof ProjectList>;
export const SessionList = z.object({ sessions: z.array(Session) });
/** A session's tokens over all its turns, and their estimated cost (null when no turn's model has prices). */
export const SessionUsage = z.extend(Usage, { cost: z.nullable(z.number()) });
export type SessionUsage = z.infer<typeof SessionUsage>;
const NO_USAGE: SessionUsage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  cost: null,
};
/** A session branched from another, as its parent lists it. */
export const BranchInfo = z.object({
  session_id: z.string(),
  title: z.string(),
  turn_id: z.string(),
  created_at: z.string(),
});
export type BranchInfo = z.infer<typeof BranchInfo>;
/**
 * One session as `GET /api/sessions/{id}` returns it: with the forks its turns spawned, the sessions
 * branched from it, and its usage.
 */
export const SessionDetail = z.extend(Session, {
  forks: z.array(ForkInfo),
  branches: z._default(z.array(BranchInfo), []),
  usage: z._default(SessionUsage, NO_USAGE),
});
export type SessionDetail = z.infer<typeof SessionDetail>;
export type SessionList = z.infer<typeof SessionList>;
export const QuestionList = z.object({ questions: z.array(Question) });
export type QuestionList = z.infer<typeof QuestionList>;
export const ModelList = z.object({
  models: z.array(ModelConfig),
  /** What the server's environment sets over the active config (CAIRN_ANTHROPIC_API_KEY, …): never values of keys. */
  env_overrides: z._default(
    z.object({ key: z.boolean(), model: z.nullable(z.string()), base_url: z.nullable(z.string()) }),
    { key: false, model: null, base_url: null },
  ),
});
export type ModelList = z.infer<typeof ModelList>;

export const TurnPage = z.object({
  turns: z.array(TurnWithDetails),
  next_before: z.nullable(z.number().check(z.int())),
  /** The session's journal position when the page was read: subscribe after it. */
  last_seq: z.number().check(z.int()),
});
export type TurnPage = z.infer<typeof TurnPage>;

export const EventList = z.object({ events: z.array(CairnEvent), has_more: z.boolean() });
export type EventList = z.infer<typeof EventList>;

export const About = z.object({
  name: z.literal('cairn'),
  version: z.string(),
  data_dir: z.string(),
  node: z.string(),
  platform: z.string(),
});
export type About = z.infer<typeof About>;

/** The next request as Cairn sees it: its size against the usable window, and the units it is made of. */
export const ContextInfo = z.object({
  version: z.number().check(z.int()),
  estimated_tokens: z.number().check(z.int()),
  /** True when no part of the size came from the API's own count (no request yet since the last change). */
  estimated: z.boolean(),
  usable_window: z.number().check(z.int()),
  compact_threshold: z.nullable(z.number()),
  /** Tokens at which automatic compaction starts (null when it is off). */
  threshold_tokens: z.nullable(z.number().check(z.int())),
  compaction_pending: z.boolean(),
  units: z.array(ContextUnit),
  /** The session's own addition to Cairn's system prompt (the agent's set/append_system_prompt); null: none. */
  system_prompt_addition: z._default(z.nullable(z.string()), null),
});
export type ContextInfo = z.infer<typeof ContextInfo>;

export const ContextVersionList = z.object({ versions: z.array(ContextVersionInfo) });
export type ContextVersionList = z.infer<typeof ContextVersionList>;

/** What the model saw at one version, newest messages first in pages (like turns). */
export const ContextVersionView = z.object({
  version: ContextVersionInfo,
  head: z.boolean(),
  messages: z.array(
    z.object({
      index: z.number().check(z.int()),
      role: z.enum(['user', 'assistant']),
      content: z.array(ContentBlock),
    }),
  ),
  total: z.number().check(z.int()),
  next_before: z.nullable(z.number().check(z.int())),
});
export type ContextVersionView = z.infer<typeof ContextVersionView>;

/** The answer to "compact now": the context after it, and the version it wrote. */
export const CompactResponse = z.extend(ContextInfo, { compacted: ContextVersionInfo });
export type CompactResponse = z.infer<typeof CompactResponse>;

export const ExperienceList = z.object({ experiences: z.array(Experience) });
export type ExperienceList = z.infer<typeof ExperienceList>;
