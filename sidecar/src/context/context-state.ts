import { z } from 'zod';
import { ContentBlock, StructuredSummary } from '../protocol';
import type { ContextVersion } from '../store/context-versions-repo';

/** One block of a message (a tool result or a long text) replaced by a stub naming where it is in full. */
export const BlockCut = z.object({
  kind: z.literal('block'),
  message_id: z.number().int(),
  index: z.number().int(),
  chars: z.number().int(),
  tokens: z.number().int(),
  /** The file holding the block in full (a tool call's result.txt, or one Cairn wrote); Read brings it back. */
  file: z.string().nullable(),
  version: z.number().int(),
});
export type BlockCut = z.infer<typeof BlockCut>;

/** Consecutive messages (rounds of one turn, or a whole turn) replaced by a summary of them. */
export const RangeCut = z.object({
  kind: z.enum(['loop', 'turn']),
  from_message_id: z.number().int(),
  to_message_id: z.number().int(),
  turn_id: z.string().nullable(),
  rounds: z.number().int(),
  tokens: z.number().int(),
  summary: StructuredSummary,
  version: z.number().int(),
});
export type RangeCut = z.infer<typeof RangeCut>;

export const ContextCut = z.union([BlockCut, RangeCut]);
export type ContextCut = z.infer<typeof ContextCut>;

/** A message of an edited history (the agent's memory edit, a fork's start): no row of the history holds it. */
export const EditedMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.array(ContentBlock),
});
export type EditedMessage = z.infer<typeof EditedMessage>;

/** What a context version keeps and replaces; the history itself is never touched. */
export interface ContextState {
  number: number;
  /** Messages before this one are covered by `summary` (except `kept`); null: none are. */
  firstMessageId: number | null;
  summary: StructuredSummary | null;
  cuts: ContextCut[];
  /** Messages before firstMessageId kept verbatim (the user's latest prompt). */
  kept: number[];
  /** Messages standing in for the history before firstMessageId (after the summary, if any); null: none. */
  edited: EditedMessage[] | null;
  /** The session's own addition to the system prompt (the agent's set/append_system_prompt). */
  systemAddition: string | null;
}

export const EMPTY_STATE: ContextState = {
  number: 1,
  firstMessageId: null,
  summary: null,
  cuts: [],
  kept: [],
  edited: null,
  systemAddition: null,
};

/** A stored version's state; a version that cannot be read keeps everything (nothing is hidden by mistake). */
export function stateOf(version: ContextVersion | null): ContextState {
  if (!version) return EMPTY_STATE;
  // Each cut on its own: one unreadable cut brings back its own range, not every other cut's.
  const cuts = (Array.isArray(version.cuts) ? version.cuts : []).flatMap((cut) => {
    const parsed = ContextCut.safeParse(cut);
    return parsed.success ? [parsed.data] : [];
  });
  return {
    number: version.number,
    firstMessageId: version.first_message_id,
    summary: readSummary(version.summary),
    cuts,
    kept: version.kept_message_ids,
    edited: readEdited(version.edited),
    systemAddition: version.system_addition,
  };
}

/** Edited messages as stored; one that cannot be read is left out rather than sent to the model broken. */
function readEdited(value: unknown[] | null): EditedMessage[] | null {
  if (!value) return null;
  return value.flatMap((message) => {
    const parsed = EditedMessage.safeParse(message);
    return parsed.success ? [parsed.data] : [];
  });
}

function readSummary(text: string | null): StructuredSummary | null {
  if (!text) return null;
  try {
    const parsed = StructuredSummary.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
