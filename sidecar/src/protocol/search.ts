import { z } from 'zod';

/** What a search hit is: a message's text, a tool call's input and result, or a kernel cell's code and output. */
export const SearchKind = z.enum(['message', 'tool_call', 'kernel_cell']);
export type SearchKind = z.infer<typeof SearchKind>;

/** `GET /api/search`: every session, one project's (`project_id`) or one session's (`session_id`). */
export const SearchQuery = z.object({
  q: z.string().trim().min(1, 'q is required: the words to find').max(1000, 'q is at most 1000 characters'),
  project_id: z.string().min(1).optional(),
  session_id: z.string().min(1).optional(),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(20),
  /** The `next_before` of the previous page: the hits ranked after it. */
  before: z.string().min(1).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** A match in a snippet: `snippet.slice(start, end)` (UTF-16 code units, end exclusive). */
export const MatchRange = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });
export type MatchRange = z.infer<typeof MatchRange>;

export const SearchHit = z.object({
  session_id: z.string(),
  /** The turn it happened in; null for a user's own kernel cell outside turns. */
  turn_id: z.string().nullable(),
  kind: SearchKind,
  /** Plain text around the matches (never HTML). */
  snippet: z.string(),
  match_ranges: z.array(MatchRange),
  session_title: z.string(),
  project_id: z.string().nullable(),
  /** What matched: a message id, a tool call id or a kernel execution id. */
  ref: z.string(),
  created_at: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.object({
  hits: z.array(SearchHit),
  /** Pass as `before` for the next page; null when there is none. */
  next_before: z.string().nullable(),
});
export type SearchResult = z.infer<typeof SearchResult>;
