import type { ContentBlock, ContextUnit, Message } from '../protocol';
import type { Store } from '../store/store';
import { type BlockCut, type ContextState, type RangeCut, stateOf } from './context-state';
import { formatSummary } from './summary-format';
import { estimateTokens } from './token-estimate';

/**
 * A piece of the context as built from a version: a summary, a summarised range, an edited message (the
 * agent's memory edit, a fork's start) or a message kept.
 */
export type ViewItem =
  | { kind: 'summary'; ref: 'summary'; text: string; tokens: number }
  | {
      kind: 'edited';
      ref: string;
      role: 'user' | 'assistant';
      content: ContentBlock[];
      /** The content as text, for a summary written over it. */
      text: string;
      tokens: number;
    }
  | { kind: 'range'; ref: string; cut: RangeCut; text: string; tokens: number }
  | {
      kind: 'message';
      ref: string;
      message: Message;
      /** The content the model sees: the message's, with compacted blocks replaced by stubs. */
      content: ContentBlock[];
      /** Per block: its tokens as the model sees it now, and whether it is a stub. */
      blocks: { tokens: number; stubbed: boolean }[];
      tokens: number;
    };

export interface ContextView {
  state: ContextState;
  items: ViewItem[];
}

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/**
 * The context of a session at a version (HEAD by default): the version's summary, then the history it
 * keeps, with its cuts applied. `uptoMessageId` limits the history to what existed then (reading an old
 * version).
 */
export function buildView(
  store: Store,
  sessionId: string,
  state: ContextState = stateOf(store.contextVersions.head(sessionId)),
  uptoMessageId: number | null = null,
): ContextView {
  const kept = store.messages.byIds(sessionId, state.kept);
  const history = store.messages.range(sessionId, state.firstMessageId, uptoMessageId);
  return { state, items: itemsOf(state, [...kept, ...history]) };
}

/** The view for a state over messages already read (the planner tries states without reading again). */
export function itemsOf(state: ContextState, messages: Message[]): ViewItem[] {
  const items: ViewItem[] = [];
  if (state.summary) {
    const text = summaryText('session', formatSummary(state.summary));
    items.push({ kind: 'summary', ref: 'summary', text, tokens: estimateTokens(text) });
  }
  state.edited?.forEach((message, index) => {
    items.push({
      kind: 'edited',
      ref: `e:${index}`,
      role: message.role,
      content: message.content,
      text: `${message.role}: ${JSON.stringify(message.content)}`,
      tokens: estimateTokens(message.content),
    });
  });
  const ranges = state.cuts.filter((c): c is RangeCut => c.kind !== 'block');
  const blocks = new Map<string, BlockCut>();
  for (const cut of state.cuts) if (cut.kind === 'block') blocks.set(`${cut.message_id}:${cut.index}`, cut);
  let open: RangeCut | null = null;
  for (const message of messages) {
    if (open && message.id <= open.to_message_id) continue;
    const range = ranges.find((r) => message.id >= r.from_message_id && message.id <= r.to_message_id);
    if (range) {
      open = range;
      const text = summaryText(range.kind, formatSummary(range.summary), range.rounds);
      const ref =
        range.kind === 'turn' ? `t:${range.turn_id ?? range.from_message_id}` : `l:${range.from_message_id}`;
      items.push({ kind: 'range', ref, cut: range, text, tokens: estimateTokens(text) });
      continue;
    }
    const content = message.content.map((block, index) => {
      const cut = blocks.get(`${message.id}:${index}`);
      return cut ? stubBlock(block, cut) : block;
    });
    const sizes = content.map((block, index) => ({
      tokens: estimateTokens(block),
      stubbed: blocks.has(`${message.id}:${index}`),
    }));
    items.push({
      kind: 'message',
      ref: `m:${message.id}`,
      message,
      content,
      blocks: sizes,
      tokens: sizes.reduce((sum, b) => sum + b.tokens, 0),
    });
  }
  return items;
}

/** The messages to send: consecutive ones of a role merged, since the API wants them to alternate. */
export function viewMessages(view: ContextView): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const item of view.items) {
    if (item.kind === 'message') appendMerged(result, item.message.role, item.content);
    else if (item.kind === 'edited') appendMerged(result, item.role, item.content);
    else appendMerged(result, 'user', [{ type: 'text', text: item.text }]);
  }
  return result;
}

/** The units a client or the agent sees, with refs that stay until the unit is compacted. */
export function viewUnits(view: ContextView, protectedIds: ReadonlySet<number>): ContextUnit[] {
  const units: ContextUnit[] = [];
  for (const item of view.items) {
    if (item.kind === 'summary') {
      units.push({
        ...base(item),
        level: 'session',
        kind: 'summary',
        role: 'user',
        turn_id: null,
        protected: false,
      });
    } else if (item.kind === 'range') {
      units.push({
        ...base(item),
        level: item.cut.kind,
        kind: 'summary',
        role: 'user',
        turn_id: item.cut.turn_id,
        protected: false,
      });
    } else if (item.kind === 'edited') {
      units.push({
        ...base(item),
        level: 'raw',
        kind: 'message',
        role: item.role,
        turn_id: null,
        protected: false,
      });
    } else if (item.content.some((b) => b.type === 'tool_result')) {
      // A message of tool results: one unit per result, so one result can be compacted by its ref.
      item.content.forEach((_, index) => {
        units.push({
          ref: `b:${item.message.id}:${index}`,
          level: item.blocks[index]!.stubbed ? 'block' : 'raw',
          kind: 'tool_result',
          role: item.message.role,
          tokens: item.blocks[index]!.tokens,
          turn_id: item.message.turn_id,
          protected: protectedIds.has(item.message.id),
        });
      });
    } else {
      units.push({
        ...base(item),
        level: item.blocks.some((b) => b.stubbed) ? 'block' : 'raw',
        kind: 'message',
        role: item.message.role,
        turn_id: item.message.turn_id,
        protected: protectedIds.has(item.message.id),
      });
    }
  }
  return units;
}

const base = (item: ViewItem) => ({ ref: item.ref, tokens: item.tokens });

export function viewTokens(view: ContextView): number {
  return view.items.reduce((sum, item) => sum + item.tokens, 0);
}

function summaryText(level: string, body: string, rounds?: number): string {
  const what =
    level === 'session'
      ? 'The conversation before this point'
      : level === 'turn'
        ? 'A past turn'
        : `${rounds ?? 1} model/tool round${rounds === 1 ? '' : 's'}`;
  return (
    `<context-summary level="${level}">\n${what} was compacted by Cairn to save context; this summary stands in ` +
    `for it. The full history is kept (Context's versions and read methods show it).\n${body}\n</context-summary>`
  );
}

function stubBlock(block: ContentBlock, cut: BlockCut): ContentBlock {
  const where = cut.file
    ? `The full text is in ${cut.file}: Read it (offset and limit read parts) if you need it again; ` +
      `without Read, Context's read method with version ${cut.version - 1} shows its start.`
    : `The full text stays in the session's history: Context's read method with version ${cut.version - 1} shows it.`;
  const text =
    `[Compacted by Cairn to save context: this ${block.type === 'tool_result' ? 'tool result' : 'text'} was ` +
    `${cut.chars} characters (about ${cut.tokens} tokens). ${where}]`;
  if (block.type === 'tool_result') {
    return {
      type: 'tool_result',
      tool_use_id: block.tool_use_id,
      content: text,
      ...(block.is_error ? { is_error: true } : {}),
    };
  }
  return { type: 'text', text };
}

function appendMerged(list: ModelMessage[], role: ModelMessage['role'], content: ContentBlock[]): void {
  const last = list.at(-1);
  if (last && last.role === role) {
    // tool_result blocks must come first in a user message, so results go before added text.
    const merged = [...last.content, ...content];
    merged.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
    last.content = merged;
    return;
  }
  list.push({ role, content: [...content] });
}
