import * as z from 'zod/mini';
import { pageLimit } from './page-limit';

/** What a search hit is: a message's text, a tool call's input and result, or a kernel cell's code and output. */
export const SearchKind = z.enum(['message', 'tool_call', 'kernel_cell']);
export type SearchKind = z.infer<typeof SearchKind>;

/** `GET /api/search`: every session, one project's (`project_id`) or one session's (`session_id`). */
export const SearchQuery = z.object({
  q: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'q is required: the words to find'),
      z.maxLength(1000, 'q is at most 1000 characters'),
    ),
  project_id: z.optional(z.string().check(z.minLength(1))),
  session_id: z.optional(z.string().check(z.minLength(1))),
  limit: pageLimit(100, 20),
  /** The `next_before` of the previous page: the hits ranked after it. */
  before: z.optional(z.string().check(z.minLength(1))),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** A match in a snippet: `snippet.slice(start, end)` (UTF-16 code units, end exclusive). */
export const MatchRange = z.object({
  start: z.number().check(z.int(), z.gte(0)),
  end: z.number().check(z.int(), z.gte(0)),
});
export type MatchRange = z.infer<typeof MatchRange>;

export const SearchHit = z.object({
  session_id: z.string(),
  /** The turn it happened in; null for a user's own kernel cell outside turns. */
  turn_id: z.nullable(z.string()),
  kind: SearchKind,
  /** Plain text around the matches (never HTML). */
  snippet: z.string(),
  match_ranges: z.array(MatchRange),
  session_title: z.string(),
  project_id: z.nullable(z.string()),
  /** What matched: a message id, a tool call id or a kernel execution id. */
  ref: z.string(),
  created_at: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.object({
  hits: z.array(SearchHit),
  /** Pass as `before` for the next page; null when there is none. */
  next_before: z.nullable(z.string()),
});
export type SearchResult = z.infer<typeof SearchResult>;
