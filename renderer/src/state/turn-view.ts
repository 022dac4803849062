import type {
  CairnEvent,
  ContentBlock,
  ContextVersionInfo,
  ErrorInfo,
  Question,
  ToolCall,
  ToolCallStatus,
  Turn,
  TurnWithDetails,
} from '../../../sidecar/src/protocol';
import {
  applyCompactionEvent,
  type CompactionItem,
  compactionFromVersion,
  isContextEvent,
  settleCompaction,
} from './compaction-item';

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
}

export type TurnItem =
  | { kind: 'prompt'; key: string; text: string }
  | { kind: 'text'; key: string; text: string; streaming: boolean }
  | { kind: 'thinking'; key: string; text: string; streaming: boolean }
  | { kind: 'tool'; key: string; card: ToolCardState }
  | { kind: 'question'; key: string; question: Question }
  | {
      kind: 'note';
      key: string;
      note: 'max_tokens' | 'truncated_tool_call';
      attempt: number;
      maxAttempts: number;
    }
  | CompactionItem;

/** One turn as the conversation shows it. */
export interface TurnView {
  turn: Turn;
  items: TurnItem[];
  /** Which model response is streaming, so deltas land in the right blocks. */
  response: number;
}

const MAX_LIVE_OUTPUT = 64 * 1024;
const UNSETTLED = new Set<ToolCardState['status']>(['pending', 'running', 'waiting_approval']);

/**
 * A finished (or reloaded) turn from its stored messages and tool calls, with its compactions placed
 * after the message each was written after.
 */
export function turnFromHistory(t: TurnWithDetails): TurnView {
  const { messages, tool_calls, questions, compactions: versions, ...turn } = t;
  const calls = new Map(tool_calls.map((c) => [c.tool_use_id, c]));
  // Questions and approvals stay where they were asked: right after their tool's card.
  const asked = new Map<string, Question[]>();
  for (const question of questions) {
    const key = question.tool_call_id ?? '';
    asked.set(key, [...(asked.get(key) ?? []), question]);
  }
  const questionItems = (key: string): TurnItem[] =>
    (asked.get(key) ?? []).map((question) => ({ kind: 'question', key: `q-${question.id}`, question }));
  const compactions = compactionsByMessage(versions);
  const items: TurnItem[] = [{ kind: 'prompt', key: 'prompt', text: turn.prompt }];
  messages.forEach((message, m) => {
    if (message.role === 'user') {
      if (message.internal && message.content.some((b) => b.type === 'text')) {
        items.push({ kind: 'note', key: `note-${m}`, note: 'max_tokens', attempt: 0, maxAttempts: 0 });
      }
    } else {
      message.content.forEach((block, b) => {
        const call = calls.get(String(block.id));
        const item = itemFromBlock(block, `m${m}-b${b}`, call);
        if (item) items.push(item);
        if (call) items.push(...questionItems(call.id));
      });
    }
    items.push(...(compactions.get(message.id) ?? []));
  });
  items.push(...questionItems(''));
  return { turn, items, response: messages.length };
}

function compactionsByMessage(versions: readonly ContextVersionInfo[]): Map<number, CompactionItem[]> {
  const byMessage = new Map<number, CompactionItem[]>();
  for (const version of versions) {
    if (version.level === null || version.after_message_id === null) continue;
    const list = byMessage.get(version.after_message_id) ?? [];
    list.push(compactionFromVersion(version));
    byMessage.set(version.after_message_id, list);
  }
  for (const list of byMessage.values()) list.sort((a, b) => (a.version ?? 0) - (b.version ?? 0));
  return byMessage;
}

/** A turn that starts live, from its turn.started event. */
export function turnFromStart(event: Extract<CairnEvent, { type: 'turn.started' }>): TurnView {
  return {
    turn: {
      id: event.turn_id ?? '',
      session_id: event.session_id,
      ordinal: event.ordinal,
      request_id: '',
      prompt: event.prompt,
      status: 'running',
      error: null,
      usage: null,
      continuations: 0,
      created_at: event.time,
      finished_at: null,
    },
    items: [{ kind: 'prompt', key: 'prompt', text: event.prompt }],
    response: 0,
  };
}

/** Applies one journal event; returns a new view (the old one is left as it was). */
export function applyEvent(view: TurnView, event: CairnEvent): TurnView {
  if (isContextEvent(event)) return { ...view, items: applyCompactionEvent(view.items, event) };
  switch (event.type) {
    case 'turn.started':
      return view;
    case 'message.delta':
    case 'thinking.delta': {
      const kind = event.type === 'message.delta' ? 'text' : 'thinking';
      const key = `r${view.response}-b${event.index}`;
      const index = view.items.findIndex((i) => i.key === key);
      if (index === -1) {
        return { ...view, items: [...view.items, { kind, key, text: event.text, streaming: true }] };
      }
      const current = view.items[index] as Extract<TurnItem, { kind: 'text' | 'thinking' }>;
      return replaceAt(view, index, { ...current, text: current.text + event.text });
    }
    case 'message.completed': {
      const prefix = `r${view.response}-`;
      const kept = view.items.filter((i) => !i.key.startsWith(prefix));
      const added = event.message.content
        .map((block, b) => itemFromBlock(block, `${prefix}final-b${b}`, undefined))
        .filter((i): i is TurnItem => i !== null);
      return { ...view, items: [...kept, ...added], response: view.response + 1 };
    }
    case 'llm.continuation': {
      // A response cut inside a tool call was discarded whole: drop what streamed of it.
      const prefix = `r${view.response}-`;
      const items =
        event.reason === 'truncated_tool_call'
          ? view.items.filter((i) => !i.key.startsWith(prefix))
          : view.items;
      const note: TurnItem = {
        kind: 'note',
        key: `note-${event.seq}`,
        note: event.reason,
        attempt: event.attempt,
        maxAttempts: event.max_attempts,
      };
      return {
        ...view,
        items: [...items, note],
        response: event.reason === 'truncated_tool_call' ? view.response + 1 : view.response,
        turn: { ...view.turn, continuations: view.turn.continuations + 1 },
      };
    }
    case 'tool.started':
      return updateCard(
        view,
        event.tool_use_id,
        (card) => ({
          ...card,
          toolCallId: event.tool_call_id,
          status: event.status,
          startedAt: Date.parse(event.time),
        }),
        () => newCard(`tool-${event.tool_use_id}`, event.tool_use_id, event.name, event.input),
      );
    case 'tool.output':
      return updateCardById(view, event.tool_call_id, (card) => ({
        ...card,
        output: (card.output + event.text).slice(-MAX_LIVE_OUTPUT),
      }));
    case 'tool.finished':
      return updateCardById(view, event.tool_call_id, (card) => ({
        ...card,
        status: event.status,
        isError: event.is_error,
        preview: event.preview,
        durationMs: event.duration_ms,
      }));
    case 'question.required':
      return {
        ...view,
        items: [...view.items, { kind: 'question', key: `q-${event.question.id}`, question: event.question }],
      };
    case 'question.answered':
    case 'question.closed': {
      const index = view.items.findIndex((i) => i.kind === 'question' && i.question.id === event.question_id);
      if (index === -1) return view;
      const item = view.items[index] as Extract<TurnItem, { kind: 'question' }>;
      const question: Question =
        event.type === 'question.answered'
          ? { ...item.question, status: 'answered', answer: event.answer, answered_at: event.time }
          : { ...item.question, status: 'closed' };
      const answered = replaceAt(view, index, { ...item, question });
      // An allowed call runs now; a denied one waits for its tool.finished, which says "denied".
      if (question.kind !== 'approval' || !question.tool_call_id || question.answer !== 'allow')
        return answered;
      return updateCardById(answered, question.tool_call_id, (card) =>
        card.status === 'waiting_approval' ? { ...card, status: 'running' } : card,
      );
    }
    case 'turn.completed':
      return finish(view, 'completed', null, event.time, event.usage);
    case 'turn.failed':
      return finish(view, 'failed', event.error, event.time, view.turn.usage);
    case 'turn.cancelled':
      return finish(view, 'cancelled', null, event.time, view.turn.usage);
    case 'turn.interrupted':
      return finish(
        view,
        'interrupted',
        { code: 'interrupted', message: event.reason },
        event.time,
        view.turn.usage,
      );
    default:
      return view;
  }
}

function finish(
  view: TurnView,
  status: Turn['status'],
  error: ErrorInfo | null,
  time: string,
  usage: Turn['usage'],
): TurnView {
  // Nothing of an ended turn is still running: settle streams, and tool cards that never heard their end.
  const settled: ToolCardState['status'] = status === 'cancelled' ? 'cancelled' : 'interrupted';
  const items = view.items.map((item): TurnItem => {
    if ((item.kind === 'text' || item.kind === 'thinking') && item.streaming)
      return { ...item, streaming: false };
    if (item.kind === 'tool' && status !== 'completed' && UNSETTLED.has(item.card.status)) {
      return { ...item, card: { ...item.card, status: settled } };
    }
    // A compaction that never heard its end stopped with the turn; the card says so in words.
    if (item.kind === 'compaction')
      return settleCompaction(item, {
        code: status === 'cancelled' ? 'cancelled' : 'interrupted',
        message: '',
      });
    return item;
  });
  return { ...view, items, turn: { ...view.turn, status, error, finished_at: time, usage } };
}

function itemFromBlock(block: ContentBlock, key: string, call: ToolCall | undefined): TurnItem | null {
  if (block.type === 'text') return { kind: 'text', key, text: String(block.text ?? ''), streaming: false };
  if (block.type === 'thinking')
    return { kind: 'thinking', key, text: String(block.thinking ?? ''), streaming: false };
  if (block.type === 'tool_use') {
    const card = newCard(`tool-${String(block.id)}`, String(block.id), String(block.name), block.input);
    if (call) {
      Object.assign(card, {
        toolCallId: call.id,
        status: call.status,
        preview: call.preview,
        isError: call.is_error,
        durationMs: call.duration_ms,
        startedAt: Date.parse(call.started_at),
      });
    }
    return { kind: 'tool', key: card.key, card };
  }
  return null;
}

function newCard(key: string, toolUseId: string, name: string, input: unknown): ToolCardState {
  return {
    key,
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
  };
}

function replaceAt(view: TurnView, index: number, item: TurnItem): TurnView {
  const items = view.items.slice();
  items[index] = item;
  return { ...view, items };
}

function updateCard(
  view: TurnView,
  toolUseId: string,
  update: (card: ToolCardState) => ToolCardState,
  create: () => ToolCardState,
): TurnView {
  const index = view.items.findIndex((i) => i.kind === 'tool' && i.card.toolUseId === toolUseId);
  if (index === -1) {
    const card = update(create());
    return { ...view, items: [...view.items, { kind: 'tool', key: card.key, card }] };
  }
  const item = view.items[index] as Extract<TurnItem, { kind: 'tool' }>;
  return replaceAt(view, index, { ...item, card: update(item.card) });
}

function updateCardById(
  view: TurnView,
  toolCallId: string,
  update: (card: ToolCardState) => ToolCardState,
): TurnView {
  const index = view.items.findIndex((i) => i.kind === 'tool' && i.card.toolCallId === toolCallId);
  if (index === -1) return view;
  const item = view.items[index] as Extract<TurnItem, { kind: 'tool' }>;
  return replaceAt(view, index, { ...item, card: update(item.card) });
}
