import { CairnError } from '../errors';
import type { Store } from '../store/store';
import type { EditedMessage } from './context-state';
import { checkSize, validateHistory } from './history-validation';
import { workingHistory } from './working-history';

/** The most characters the session's own addition to the system prompt may have: it is sent with every request. */
export const MAX_SYSTEM_ADDITION = 20_000;

/** The working history as the batch's first memory call found it. */
export interface MemorySnapshot {
  /** HEAD's version number then: the edit is written only over that same version. */
  version: number;
  messages: EditedMessage[];
  /** The assistant message whose tool calls were running (it and its results stay after the edit). */
  frontierMessageId: number | null;
  /** The session's newest message then, for where the history goes on when no round was in flight. */
  newestMessageId: number | null;
  /** The tool_use ids of the round in flight: an edited message may not reuse them. */
  frontierToolUseIds: Set<string>;
  systemAddition: string | null;
  bytes: number;
}

/** One session's pending memory: the snapshot and the working copy its edits change. */
export interface PendingMemory {
  sessionId: string;
  snapshot: MemorySnapshot;
  messages: EditedMessage[];
  systemAddition: string | null;
}

/**
 * The agent's memory edits per session, in memory until the next request: the batch's first read or
 * edit takes a snapshot of the working history, reads see the working copy, and each edit is checked
 * against the whole history it would leave. The context step takes them after the batch and writes one
 * version; the runtime drops them when their turn ends.
 */
export class MemoryEdits {
  private readonly pending = new Map<string, PendingMemory>();

  constructor(private readonly store: Store) {}

  count(sessionId: string): number {
    return this.open(sessionId).messages.length;
  }

  all(sessionId: string): EditedMessage[] {
    return structuredClone(this.open(sessionId).messages);
  }

  get(sessionId: string, index: number): EditedMessage {
    const { messages } = this.open(sessionId);
    return structuredClone(messages[itemIndex(index, messages.length, 'get')]!);
  }

  append(sessionId: string, message: EditedMessage): number {
    return this.edit(sessionId, (list) => [...list, message]);
  }

  insert(sessionId: string, index: number, message: EditedMessage): number {
    return this.edit(sessionId, (list) => {
      const at = insertIndex(index, list.length);
      return [...list.slice(0, at), message, ...list.slice(at)];
    });
  }

  update(sessionId: string, index: number, message: EditedMessage): number {
    return this.edit(sessionId, (list) => {
      const at = itemIndex(index, list.length, 'update');
      return list.map((m, i) => (i === at ? message : m));
    });
  }

  delete(sessionId: string, index: number): number {
    return this.edit(sessionId, (list) => {
      const at = itemIndex(index, list.length, 'delete');
      return list.filter((_, i) => i !== at);
    });
  }

  replace(sessionId: string, messages: EditedMessage[]): number {
    return this.edit(sessionId, () => messages);
  }

  clear(sessionId: string): number {
    return this.edit(sessionId, () => []);
  }

  systemPrompt(sessionId: string): string {
    return this.open(sessionId).systemAddition ?? '';
  }

  setSystemPrompt(sessionId: string, text: string): string {
    return this.setAddition(sessionId, text);
  }

  appendSystemPrompt(sessionId: string, text: string): string {
    const current = this.systemPrompt(sessionId);
    return this.setAddition(sessionId, current ? `${current}\n${text}` : text);
  }

  /** The session's pending memory, taken away (the next memory call takes a new snapshot); null: none. */
  take(sessionId: string): PendingMemory | null {
    const pending = this.pending.get(sessionId) ?? null;
    this.pending.delete(sessionId);
    return pending;
  }

  drop(sessionId: string): void {
    this.pending.delete(sessionId);
  }

  private open(sessionId: string): PendingMemory {
    const existing = this.pending.get(sessionId);
    if (existing) return existing;
    const history = workingHistory(this.store, sessionId);
    const frontier =
      history.frontierMessageId !== null
        ? this.store.messages.byIds(sessionId, [history.frontierMessageId])[0]
        : undefined;
    const snapshot: MemorySnapshot = {
      version: history.state.number,
      messages: history.messages,
      frontierMessageId: history.frontierMessageId,
      newestMessageId: this.store.messages.last(sessionId)?.id ?? null,
      frontierToolUseIds: new Set(
        (frontier?.content ?? []).filter((b) => b.type === 'tool_use').map((b) => String(b.id)),
      ),
      systemAddition: history.state.systemAddition,
      bytes: Buffer.byteLength(JSON.stringify(history.messages)),
    };
    const pending: PendingMemory = {
      sessionId,
      snapshot,
      messages: structuredClone(history.messages),
      systemAddition: history.state.systemAddition,
    };
    this.pending.set(sessionId, pending);
    return pending;
  }

  /** Applies a change to the working copy when the whole history it leaves is valid; returns the new count. */
  private edit(sessionId: string, change: (list: EditedMessage[]) => EditedMessage[]): number {
    const pending = this.open(sessionId);
    const next = structuredClone(change(pending.messages));
    validateHistory(next, pending.snapshot.frontierToolUseIds);
    // The reply whose calls run now follows the working history: an assistant message last would merge
    // into it (and a reply with thinking must start with its thinking block).
    if (pending.snapshot.frontierMessageId !== null && next.at(-1)?.role === 'assistant') {
      throw new CairnError(
        'bad_request',
        `Memory edit refused: message ${next.length - 1} is an assistant message, but the working history must ` +
          'end with a user message while your current reply (whose tool calls are running) follows it. Add a ' +
          'user message after it, or leave it out.',
      );
    }
    checkSize(next, pending.snapshot.bytes);
    pending.messages = next;
    return next.length;
  }

  private setAddition(sessionId: string, text: string): string {
    if (text.length > MAX_SYSTEM_ADDITION) {
      throw new CairnError(
        'bad_request',
        `Memory edit refused: the system prompt addition would be ${text.length} characters, over the ` +
          `${MAX_SYSTEM_ADDITION} allowed; it is sent with every request, so keep it to standing instructions.`,
      );
    }
    this.open(sessionId).systemAddition = text.trim() ? text : null;
    return text.trim() ? text : '';
  }
}

/** A Python-style index of an existing message (-n..n-1). */
export function itemIndex(index: number, length: number, method: string): number {
  if (!Number.isInteger(index)) throw badIndex(`${method}'s index must be an integer, not ${index}`);
  if (index < -length || index >= length) {
    const range =
      length === 0
        ? 'the history is empty'
        : `the history has ${length} message${length === 1 ? '' : 's'}, so an index from ${-length} to ${length - 1}`;
    throw badIndex(`${method}'s index ${index} is out of range: ${range}`);
  }
  return index < 0 ? index + length : index;
}

/** A Python-style position to insert at (-n..n; n appends). */
export function insertIndex(index: number, length: number): number {
  if (!Number.isInteger(index)) throw badIndex(`insert's index must be an integer, not ${index}`);
  if (index < -length || index > length) {
    throw badIndex(
      `insert's index ${index} is out of range: the history has ${length} message${length === 1 ? '' : 's'}, so an index from ${-length} to ${length}`,
    );
  }
  return index < 0 ? index + length : index;
}

const badIndex = (text: string) => new CairnError('bad_request', `Memory: ${text}.`);
