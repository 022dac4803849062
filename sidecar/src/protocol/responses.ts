import { z } from 'zod';
import { ModelConfig, Project, Question, Session, TurnWithDetails } from './entities';
import { CairnEvent } from './events';

/** Response bodies that wrap entities: lists are named after their route. */

export const ProjectList = z.object({ projects: z.array(Project) });
export type ProjectList = z.infer<typeof ProjectList>;
export const SessionList = z.object({ sessions: z.array(Session) });
export type SessionList = z.infer<typeof SessionList>;
export const QuestionList = z.object({ questions: z.array(Question) });
export type QuestionList = z.infer<typeof QuestionList>;
export const ModelList = z.object({
  models: z.array(ModelConfig),
  /** What the server's environment sets over the active config (CAIRN_ANTHROPIC_API_KEY, …): never values of keys. */
  env_overrides: z
    .object({ key: z.boolean(), model: z.string().nullable(), base_url: z.string().nullable() })
    .default({ key: false, model: null, base_url: null }),
});
export type ModelList = z.infer<typeof ModelList>;

export const TurnPage = z.object({
  turns: z.array(TurnWithDetails),
  next_before: z.number().int().nullable(),
  /** The session's journal position when the page was read: subscribe after it. */
  last_seq: z.number().int(),
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
