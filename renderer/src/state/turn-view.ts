import type {
  CairnEvent,
  ContentBlock,
  ContextVersionInfo,
  ErrorInfo,
  ForkInfo,
  Question,
  ToolCall,
  Turn,
  TurnWithDetails,
} from '../../../sidecar/src/protocol';
import { codeStepMessageId, codeStepUseId } from './code-step';
import {
  applyCompactionEvent,
  type CompactionItem,
  compactionFromVersion,
  isContextEvent,
  settleCompaction,
} from './compaction-item';
import { applyContextEdit, type ContextEditItem, contextEditItem, isAgentEdit } from './context-edit-item';
import { applyForkUpdate, type ForksItem, placeForks } from './fork-items';
import { applyMcpLoginWait, type McpLoginWait } from './mcp-login-waits';
import {
  addQuestionNested,
  addUnder,
  appendOutput,
  cardFromCall,
  changeFirst,
  type NestedItem,
  newCard,
  type QuestionItem,
  questionItem,
  settleCards,
  type ToolCardState,
  type ToolItem,
  toolItem,
  updateCardById,
  updateCardByUse,
  withProgress,
} from './tool-items';

export type { ContextEditItem } from './context-edit-item';
export type { ForksItem } from './fork-items';
export type { NestedItem, QuestionItem, ToolCardState, ToolItem } from './tool-items';

export type TurnItem =
  | { kind: 'prompt'; key: string; text: string }
  | {
      kind: 'text';
      key: string;
      text: string;
      streaming: boolean;
      /** The stored message it is part of, once known (a code step names it). */
      messageId?: number;
      /** A code-mode reply whose code ran as a step: the text shows without its code block. */
      reasoning?: boolean;
    }
  | { kind: 'thinking'; key: string; text: string; streaming: boolean }
  | ToolItem
  | QuestionItem
  | {
      kind: 'note';
      key: string;
      note: 'max_tokens' | 'truncated_tool_call';
      attempt: number;
      maxAttempts: number;
    }
  | CompactionItem
  | ContextEditItem
  | ForksItem;

/** One turn as the conversation shows it. */
export interface TurnView {
  turn: Turn;
  items: TurnItem[];
  /** Which model response is streaming, so deltas land in the right blocks. */
  response: number;
  /** MCP servers the running turn waits on for a login (its `mcp.server` events); absent when none. */
  mcpLogins?: readonly McpLoginWait[];
}

/**
 * A finished (or reloaded) turn from its stored messages and tool calls, with its compactions placed
 * after the message each was written after. A call's card takes the call's state now (a background call
 * may run on, or have ended, after its turn), and the calls scripts started are nested under their parent.
 */
export function turnFromHistory(t: TurnWithDetails): TurnView {
  const { messages, tool_calls, questions, compactions: versions, ...turn } = t;
  const calls = new Map(tool_calls.map((c) => [c.tool_use_id, c]));
  const places = new HistoryPlaces(messages, tool_calls, questions);
  const compactions = versionsByMessage(versions);
  const items: TurnItem[] = [{ kind: 'prompt', key: 'prompt', text: turn.prompt }];
  // A code step's observation comes back as an internal user message: hidden, like the step's tool results.
  let afterStep = false;
  messages.forEach((message, m) => {
    if (message.role === 'user') {
      if (message.internal && !afterStep && message.content.some((b) => b.type === 'text')) {
        items.push({ kind: 'note', key: `note-${m}`, note: 'max_tokens', attempt: 0, maxAttempts: 0 });
      }
    } else {
      const step = calls.get(codeStepUseId(message.id));
      message.content.forEach((block, b) => {
        const call = calls.get(String(block.id));
        const item = itemFromBlock(block, `m${m}-b${b}`, call);
        if (item?.kind === 'tool' && call) item.nested = places.nestedUnder(call.id);
        if (item?.kind === 'text')
          Object.assign(item, { messageId: message.id, reasoning: step !== undefined });
        if (item) items.push(item);
        if (call) items.push(...places.questionsOf(call.id));
      });
      afterStep = step !== undefined;
      // A code-mode reply has no tool_use block: its step (the code it ran) follows it.
      if (step) {
        items.push(toolItem(cardFromCall(step), places.nestedUnder(step.id)), ...places.questionsOf(step.id));
      }
    }
    items.push(...(compactions.get(message.id) ?? []));
  });
  // Whatever found no place above (a script's call whose parent is not in this turn, a question of no
  // call) still shows, at the end.
  items.push(...places.leftovers());
  return { turn, items, response: messages.length };
}

/** Where a stored turn's script calls and questions go: under their parent call, after their own call. */
class HistoryPlaces {
  private readonly children = new Map<string, ToolCall[]>();
  private readonly asked = new Map<string, Question[]>();
  private readonly placed = new Set<string>();

  constructor(
    messages: TurnWithDetails['messages'],
    calls: readonly ToolCall[],
    private readonly questions: readonly Question[],
  ) {
    const used = new Set<string>();
    for (const message of messages)
      for (const block of message.content) if (block.type === 'tool_use') used.add(String(block.id));
    for (const call of calls) {
      if (call.parent_tool_call_id === null || used.has(call.tool_use_id)) continue;
      const list = this.children.get(call.parent_tool_call_id) ?? [];
      list.push(call);
      this.children.set(call.parent_tool_call_id, list);
    }
    for (const question of questions) {
      const key = question.tool_call_id ?? '';
      this.asked.set(key, [...(this.asked.get(key) ?? []), question]);
    }
  }

  questionsOf(callId: string): QuestionItem[] {
    return (this.asked.get(callId) ?? []).map((question) => {
      this.placed.add(question.id);
      return questionItem(question);
    });
  }

  nestedUnder(callId: string): NestedItem[] {
    return (this.children.get(callId) ?? []).flatMap((child) => {
      if (this.placed.has(child.id)) return [];
      this.placed.add(child.id);
      return [toolItem(cardFromCall(child), this.nestedUnder(child.id)), ...this.questionsOf(child.id)];
    });
  }

  leftovers(): TurnItem[] {
    const items: TurnItem[] = [];
    for (const list of this.children.values())
      for (const call of list) {
        if (this.placed.has(call.id)) continue;
        this.placed.add(call.id);
        items.push(toolItem(cardFromCall(call), this.nestedUnder(call.id)), ...this.questionsOf(call.id));
      }
    for (const question of this.questions)
      if (!this.placed.has(question.id)) items.push(questionItem(question));
    return items;
  }
}

/** The versions written in a turn, as cards after their message: compactions, and the agent's own edits. */
function versionsByMessage(
  versions: readonly ContextVersionInfo[],
): Map<number, (CompactionItem | ContextEditItem)[]> {
  const byMessage = new Map<number, (CompactionItem | ContextEditItem)[]>();
  const sorted = [...versions].sort((a, b) => a.number - b.number);
  for (const version of sorted) {
    if (version.after_message_id === null) continue;
    const item = isAgentEdit(version)
      ? contextEditItem(version.number)
      : version.level !== null
        ? compactionFromVersion(version)
        : null;
    if (item)
      byMessage.set(version.after_message_id, [...(byMessage.get(version.after_message_id) ?? []), item]);
  }
  return byMessage;
}

/** The turn with its forks group holding `forks` (from the session's detail), where the group belongs. */
export function withForks(view: TurnView, forks: ForkInfo[]): TurnView {
  return { ...view, items: placeForks(view.items, forks) };
}

/** A finished turn known only as a turn (a revert, which has no messages): its prompt and nothing else. */
export function turnFromTurn(turn: Turn): TurnView {
  return { turn, items: [{ kind: 'prompt', key: 'prompt', text: turn.prompt }], response: 0 };
}

/** A turn that starts live, from its turn.started event. */
/** A turn's file-history fields before anything is known of its files: a prompt, nothing recorded. */
export const NO_FILE_HISTORY = {
  kind: 'prompt',
  reverted_turn_id: null,
  files_changed: null,
  files_recorded: false,
  files_note: null,
  not_restored: [],
} as const satisfies Partial<Turn>;

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
      cost: null,
      ...NO_FILE_HISTORY,
      usage: null,
      continuations: 0,
      created_at: event.time,
      finished_at: null,
      answer: null,
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
        .filter((i): i is TurnItem => i !== null)
        .map((i) => (i.kind === 'text' ? { ...i, messageId: event.message.id } : i));
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
      return startCard(view, event);
    case 'tool.running':
      return withItems(
        view,
        updateCardById(view.items, event.tool_call_id, (card) =>
          card.status === 'waiting_approval' ? { ...card, status: 'running' } : card,
        ),
      );
    case 'tool.output':
      return withItems(
        view,
        updateCardById(view.items, event.tool_call_id, (card) => appendOutput(card, event.text)),
      );
    case 'tool.progress':
      return withItems(
        view,
        updateCardById(view.items, event.tool_call_id, (card) => withProgress(card, event)),
      );
    case 'tool.finished':
      return withItems(
        view,
        updateCardById(view.items, event.tool_call_id, (card) => ({
          ...card,
          status: event.status,
          isError: event.is_error,
          preview: event.preview,
          durationMs: event.duration_ms,
          exitCode: event.exit_code,
          meta: event.meta,
        })),
      );
    case 'fork.updated':
      return { ...view, items: applyForkUpdate(view.items, event.fork) };
    case 'mcp.server':
      return { ...view, mcpLogins: applyMcpLoginWait(view.mcpLogins ?? [], event) };
    case 'context.edited':
      return { ...view, items: applyContextEdit(view.items, event) };
    case 'question.required':
      // A script's call asks next to its own card; any other question comes next in the turn.
      return {
        ...view,
        items: addQuestionNested(view.items, event.question) ?? [...view.items, questionItem(event.question)],
      };
    case 'question.answered':
    case 'question.closed': {
      const found: { question: Question | null } = { question: null };
      const items = changeFirst(view.items, (item) => {
        if (item.kind !== 'question' || item.question.id !== event.question_id) return null;
        found.question =
          event.type === 'question.answered'
            ? { ...item.question, status: 'answered', answer: event.answer, answered_at: event.time }
            : { ...item.question, status: 'closed' };
        return { ...item, question: found.question };
      });
      const question = found.question;
      if (!items || !question) return view;
      // An allowed call runs now; a denied one waits for its tool.finished, which says "denied".
      if (question.kind !== 'approval' || !question.tool_call_id || question.answer !== 'allow')
        return { ...view, items };
      return {
        ...view,
        items:
          updateCardById(items, question.tool_call_id, (card) =>
            card.status === 'waiting_approval' ? { ...card, status: 'running' } : card,
          ) ?? items,
      };
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
  const cards = status === 'completed' ? view.items : settleCards(view.items, settled);
  const items = cards.map((item): TurnItem => {
    if ((item.kind === 'text' || item.kind === 'thinking') && item.streaming)
      return { ...item, streaming: false };
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
    const [id, name] = [String(block.id), String(block.name)];
    // The stored call says where it is now: a background call's receipt is not its end.
    return toolItem(call ? cardFromCall(call, name, block.input) : newCard(id, name, block.input));
  }
  return null;
}

/**
 * A call starts: the model's card (made from its tool_use) learns its call; a script's call gets a card
 * of its own under the card of the call whose script started it.
 */
function startCard(view: TurnView, event: Extract<CairnEvent, { type: 'tool.started' }>): TurnView {
  const start = (card: ToolCardState): ToolCardState => ({
    ...card,
    toolCallId: event.tool_call_id,
    status: event.status,
    startedAt: Date.parse(event.time),
    background: event.background,
    parentToolCallId: event.parent_tool_call_id,
  });
  const known = updateCardByUse(view.items, event.tool_use_id, start);
  if (known) return { ...view, items: known };
  const item = toolItem(start(newCard(event.tool_use_id, event.name, event.input)));
  const parent = event.parent_tool_call_id;
  const nested = parent === null ? null : addUnder(view.items, parent, item);
  if (nested) return { ...view, items: nested };
  // A code step starts right after its reply (completed just before): the reply now shows its reasoning.
  const stepOf = codeStepMessageId(event.tool_use_id);
  const items =
    stepOf === null
      ? view.items
      : view.items.map((i) => (i.kind === 'text' && i.messageId === stepOf ? { ...i, reasoning: true } : i));
  return { ...view, items: [...items, item] };
}

function withItems(view: TurnView, items: TurnItem[] | null): TurnView {
  return items ? { ...view, items } : view;
}

function replaceAt(view: TurnView, index: number, item: TurnItem): TurnView {
  const items = view.items.slice();
  items[index] = item;
  return { ...view, items };
}
