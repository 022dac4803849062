import type { Question, ToolCall, ToolCallStatus } from '../../../sidecar/src/protocol';

/** One tool call as its card shows it. */
export interface ToolCardState {
  key: string;
  toolUseId: string;
  toolCallId: string | null;
  name: string;
  input: unknown;
  status: ToolCallStatus | 'pending';
  /** Live stdout/stderr while it runs (bounded). */
  output: string;
  preview: string | null;
  isError: boolean;
  durationMs: number | null;
  startedAt: number | null;
  /** It runs on after its receipt (a background task): its turn may end first. */
  background: boolean;
  /** The call whose script started this one, or null for the model's own calls. */
  parentToolCallId: string | null;
  exitCode: number | null;
  /** What the tool said about the call besides its text (execute_code: the kinds of its outputs). */
  meta: Record<string, unknown> | null;
  /** The latest progress it reported while running (an MCP server's), or null. */
  progress: ToolProgress | null;
}

/** A call's progress as `tool.progress` gives it: `total` null when the tool does not know it. */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

export interface QuestionItem {
  kind: 'question';
  key: string;
  question: Question;
}

/** A tool card, with the calls its scripts started (and their questions) nested under it. */
export interface ToolItem {
  kind: 'tool';
  key: string;
  card: ToolCardState;
  nested: NestedItem[];
}

export type NestedItem = ToolItem | QuestionItem;

/** Anything a list of a turn's items may hold: tools and questions are looked into, the rest passed by. */
type AnyItem = { kind: string; key: string };

const MAX_LIVE_OUTPUT = 64 * 1024;

export function newCard(toolUseId: string, name: string, input: unknown): ToolCardState {
  return {
    key: `tool-${toolUseId}`,
    toolUseId,
    toolCallId: null,
    name,
    input,
    status: 'pending',
    output: '',
    preview: null,
    isError: false,
    durationMs: null,
    startedAt: null,
    background: false,
    parentToolCallId: null,
    exitCode: null,
    meta: null,
    progress: null,
  };
}

/** A card as the stored call says it is now (a background call may still run, or have ended since). */
export function cardFromCall(call: ToolCall, name = call.name, input = call.input): ToolCardState {
  return {
    ...newCard(call.tool_use_id, name, input),
    toolCallId: call.id,
    status: call.status,
    preview: call.preview,
    isError: call.is_error,
    durationMs: call.duration_ms,
    startedAt: Date.parse(call.started_at),
    background: call.background,
    parentToolCallId: call.parent_tool_call_id,
    exitCode: call.exit_code,
    meta: call.meta,
  };
}

export function toolItem(card: ToolCardState, nested: NestedItem[] = []): ToolItem {
  return { kind: 'tool', key: card.key, card, nested };
}

export function questionItem(question: Question): QuestionItem {
  return { kind: 'question', key: `q-${question.id}`, question };
}

/**
 * Replaces the first tool or question item, at any depth, that `change` answers for (null: not this one).
 * Returns null when none changed, so callers can keep the list they had.
 */
export function changeFirst<T extends AnyItem>(
  items: readonly T[],
  change: (item: NestedItem) => NestedItem | null,
): T[] | null {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind !== 'tool' && item.kind !== 'question') continue;
    const own = item as unknown as NestedItem;
    const changed = change(own);
    const nested = changed === null && own.kind === 'tool' ? changeFirst(own.nested, change) : null;
    if (changed === null && nested === null) continue;
    const next = items.slice();
    next[i] = (changed ?? { ...(own as ToolItem), nested: nested! }) as unknown as T;
    return next;
  }
  return null;
}

/** Changes the card of one call (by its id), wherever it is nested. */
export function updateCardById<T extends AnyItem>(
  items: readonly T[],
  toolCallId: string,
  update: (card: ToolCardState) => ToolCardState,
): T[] | null {
  return changeFirst(items, (item) =>
    item.kind === 'tool' && item.card.toolCallId === toolCallId ? { ...item, card: update(item.card) } : null,
  );
}

/** Changes the card of one tool_use (by its id), wherever it is nested. */
export function updateCardByUse<T extends AnyItem>(
  items: readonly T[],
  toolUseId: string,
  update: (card: ToolCardState) => ToolCardState,
): T[] | null {
  return changeFirst(items, (item) =>
    item.kind === 'tool' && item.card.toolUseId === toolUseId ? { ...item, card: update(item.card) } : null,
  );
}

/** Appends `child` under the card of call `parentId`; null when that card is not here. */
export function addUnder<T extends AnyItem>(
  items: readonly T[],
  parentId: string,
  child: NestedItem,
): T[] | null {
  return changeFirst(items, (item) =>
    item.kind === 'tool' && item.card.toolCallId === parentId
      ? { ...item, nested: [...item.nested, child] }
      : null,
  );
}

/**
 * Places a question right after its call's card when that card is nested (a script's call asks); null
 * when the call is not nested here (the caller appends it, as it does a model's call's question).
 */
export function addQuestionNested<T extends AnyItem>(items: readonly T[], question: Question): T[] | null {
  const callId = question.tool_call_id;
  if (callId === null) return null;
  return changeFirst(items, (item) => {
    if (item.kind !== 'tool') return null;
    const at = item.nested.findIndex((n) => n.kind === 'tool' && n.card.toolCallId === callId);
    if (at === -1) return null;
    const nested = item.nested.slice();
    nested.splice(at + 1, 0, questionItem(question));
    return { ...item, nested };
  });
}

export function withProgress(
  card: ToolCardState,
  event: { progress: number; total: number | null; message: string | null },
): ToolCardState {
  return { ...card, progress: { progress: event.progress, total: event.total, message: event.message } };
}

export function appendOutput(card: ToolCardState, text: string): ToolCardState {
  return { ...card, output: (card.output + text).slice(-MAX_LIVE_OUTPUT) };
}

const UNSETTLED = new Set<ToolCardState['status']>(['pending', 'running', 'waiting_approval']);

/**
 * The cards of a turn that ended without hearing their own end take its outcome. A background call and
 * the calls of scripts are left alone: they run on after their turn and say when they end.
 */
export function settleCards<T extends AnyItem>(items: readonly T[], settled: ToolCardState['status']): T[] {
  return items.map((item) => {
    if (item.kind !== 'tool') return item;
    const tool = item as unknown as ToolItem;
    const card = tool.card;
    if (card.background || card.parentToolCallId !== null || !UNSETTLED.has(card.status)) return item;
    return { ...tool, card: { ...card, status: settled } } as unknown as T;
  });
}
