import { CairnError } from '../errors';
import type { ContentBlock } from '../protocol';
import type { EditedMessage } from './context-state';

/** The most JSON an edit may grow the working history to (a history already larger may still shrink). */
export const MAX_EDITED_BYTES = 2 * 1024 * 1024;

const PREFIX = 'Memory edit refused: ';
const TOGETHER = 'replace(messages) makes several changes at once';
const BLOCK_TYPES = ['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking'];
const ASSISTANT_ONLY = new Set(['tool_use', 'thinking', 'redacted_thinking']);
const RESULT_PARTS = new Set(['text', 'image', 'document']);

const refuse = (text: string) => new CairnError('bad_request', PREFIX + text);

/**
 * A message as the agent's memory handle gives it: `{"role", "content"}`, where content is a string (one
 * text block) or a list of content blocks. Only the shape is checked here; blocks are checked with the
 * whole history (validateHistory), where their position is known.
 */
export function toMessage(raw: unknown, what = 'the message'): EditedMessage {
  if (!isObject(raw)) {
    throw refuse(`${what} is not a message: give {"role": "user"|"assistant", "content": str | [blocks]}.`);
  }
  const { role, content } = raw;
  if (role !== 'user' && role !== 'assistant') {
    throw refuse(`${what} has role ${JSON.stringify(role ?? null)}; a role is "user" or "assistant".`);
  }
  if (typeof content === 'string') {
    if (!content.trim()) throw refuse(`${what} has empty text content; give some text or blocks.`);
    return { role, content: [{ type: 'text', text: content }] };
  }
  if (!Array.isArray(content)) {
    throw refuse(`${what} has no content: give a string or a list of content blocks.`);
  }
  const blocks = structuredClone(content) as ContentBlock[];
  // The API wants a user message's tool results before anything else in it, as Cairn sends its own.
  blocks.sort((x, y) => Number(isResult(y)) - Number(isResult(x)));
  return { role, content: blocks };
}

const isResult = (block: unknown) => isObject(block) && block.type === 'tool_result';

/**
 * Checks a whole working history as the model would get it: roles, known blocks in the right role, a
 * user message first, and every tool_use answered by a tool_result in the next message (and each result
 * answering a call of the message just before), on the merged form, since consecutive messages of one
 * role are sent as one. `reservedIds` are the tool_use ids of the round in flight, which follows.
 */
export function validateHistory(
  messages: EditedMessage[],
  reservedIds: ReadonlySet<string> = new Set(),
): void {
  messages.forEach((message, index) => {
    checkMessage(message, index);
  });
  const groups = mergedGroups(messages);
  if (groups[0] && groups[0].role !== 'user') {
    throw refuse(
      `message 0 is an assistant message, but the history must start with a user message. Remove it, or ` +
        `put a user message before it (${TOGETHER}).`,
    );
  }
  const seen = new Map<string, number>();
  for (const group of groups) {
    for (const use of group.uses) {
      if (reservedIds.has(use.id)) {
        throw refuse(
          `message ${use.index} has a tool_use with id ${use.id}, the id of a tool call running now (its round ` +
            'follows the history); give it another id.',
        );
      }
      const earlier = seen.get(use.id);
      if (earlier !== undefined) {
        throw refuse(
          `message ${use.index} has a tool_use with id ${use.id}, which message ${earlier} has too: tool_use ids ` +
            'must be unique.',
        );
      }
      seen.set(use.id, use.index);
    }
  }
  groups.forEach((group, k) => {
    const before = groups[k - 1];
    const after = groups[k + 1];
    const answered = new Set<string>();
    for (const result of group.results) {
      if (answered.has(result.id)) {
        throw refuse(
          `message ${result.index} (user) answers ${result.id} twice; keep one tool_result for it.`,
        );
      }
      answered.add(result.id);
      if (!before?.uses.some((u) => u.id === result.id)) {
        const missing = before
          ? `${label(before)} has no tool_use with that id`
          : 'no assistant message comes before it';
        throw refuse(
          `message ${result.index} (user) has a tool_result for ${result.id} but ${missing}. A tool_use and ` +
            `its tool_result go together: remove or change both (${TOGETHER}).`,
        );
      }
    }
    for (const use of group.uses) {
      if (!after) {
        throw refuse(
          `message ${use.index} (assistant) ends the history with tool_use ${use.id} unanswered: the message ` +
            `after it must hold its tool_result. Add the result, or remove the call (${TOGETHER}).`,
        );
      }
      if (!after.results.some((r) => r.id === use.id)) {
        throw refuse(
          `message ${use.index} (assistant) has a tool_use ${use.id} that ${label(after)} does not answer with a ` +
            `tool_result. Add the result there, or remove the call (${TOGETHER}).`,
        );
      }
    }
  });
}

/** Refuses a history an edit grew past MAX_EDITED_BYTES; `before` is the size it had when the batch began. */
export function checkSize(messages: EditedMessage[], before: number): number {
  const bytes = Buffer.byteLength(JSON.stringify(messages));
  if (bytes > MAX_EDITED_BYTES && bytes > before) {
    throw refuse(
      `the working history would be ${megabytes(bytes)} of JSON, over the ${megabytes(MAX_EDITED_BYTES)} an ` +
        'edit may grow it to. Shorten or remove messages (replace(messages) does it in one step).',
    );
  }
  return bytes;
}

function checkMessage(message: EditedMessage, index: number): void {
  const where = `message ${index} (${message.role})`;
  if (message.content.length === 0) {
    throw refuse(`${where} has no content blocks; give at least one, or delete the message.`);
  }
  message.content.forEach((block, b) => {
    const at = `${where} block ${b}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      throw refuse(`${at} is not a content block (an object with a "type").`);
    }
    if (!BLOCK_TYPES.includes(block.type)) {
      throw refuse(`${at} has type "${block.type}"; known types: ${BLOCK_TYPES.join(', ')}.`);
    }
    if (ASSISTANT_ONLY.has(block.type) && message.role !== 'assistant') {
      throw refuse(`${at} is a ${block.type} block, which only an assistant message may hold.`);
    }
    if (block.type === 'tool_result' && message.role !== 'user') {
      throw refuse(`${at} is a tool_result block, which only a user message may hold.`);
    }
    const problem = blockProblem(block);
    if (problem) throw refuse(`${at} (${block.type}) ${problem}.`);
  });
}

/**
 * The fields each block type may carry, as Cairn itself sends them. Anything else (`cache_control` above
 * all: Cairn places the request's four breakpoints itself, and a fifth makes the API refuse the request) is
 * refused, since a block the API refuses would be sent again with every later request of the session.
 */
const FIELDS: Record<string, readonly string[]> = {
  text: ['type', 'text'],
  image: ['type', 'source'],
  document: ['type', 'source', 'title', 'context'],
  tool_use: ['type', 'id', 'name', 'input'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error'],
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
};

/** The API's pattern for tool_use ids (and so for the tool_result answering one). */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** What is wrong with a block of a known type, or null. */
function blockProblem(block: ContentBlock): string | null {
  const extra = Object.keys(block).filter((key) => !FIELDS[block.type]?.includes(key));
  if (extra.length > 0) {
    return `has ${extra.map((k) => JSON.stringify(k)).join(', ')}, which a ${block.type} block may not carry (fields: ${FIELDS[block.type]!.join(', ')})`;
  }
  switch (block.type) {
    case 'text':
      return nonEmpty(block.text) ? null : 'needs a non-empty "text"';
    case 'image':
      return sourceProblem(block.source, IMAGE_SOURCES);
    case 'document':
      if (block.title !== undefined && typeof block.title !== 'string')
        return 'has a title that is not a string';
      if (block.context !== undefined && typeof block.context !== 'string')
        return 'has a context that is not a string';
      return sourceProblem(block.source, DOCUMENT_SOURCES);
    case 'tool_use':
      if (!nonEmpty(block.id)) return 'needs an "id"';
      if (!TOOL_USE_ID.test(String(block.id))) return 'has an "id" other than letters, digits, _ and -';
      if (!nonEmpty(block.name)) return 'needs a "name"';
      return isObject(block.input) ? null : 'needs an "input" object';
    case 'tool_result': {
      if (!nonEmpty(block.tool_use_id)) return 'needs a "tool_use_id"';
      if (!TOOL_USE_ID.test(String(block.tool_use_id)))
        return 'has a "tool_use_id" other than letters, digits, _ and -';
      if (block.is_error !== undefined && typeof block.is_error !== 'boolean')
        return 'has an is_error that is not a boolean';
      const content = block.content;
      if (content === undefined || typeof content === 'string') return null;
      if (!Array.isArray(content) || !content.every((p) => isObject(p) && RESULT_PARTS.has(String(p.type))))
        return 'has content that is neither a string nor a list of text, image or document blocks';
      for (const [i, part] of content.entries()) {
        const problem = blockProblem(part as ContentBlock);
        if (problem) return `has content block ${i} (${String((part as ContentBlock).type)}) that ${problem}`;
      }
      return null;
    }
    case 'thinking':
      if (typeof block.thinking !== 'string') return 'needs a "thinking" string';
      // The API checks a thinking block against its signature: only one it returned can be given back.
      return nonEmpty(block.signature)
        ? null
        : 'needs the "signature" the API gave it (only thinking blocks read from the history can be kept)';
    default:
      return typeof block.data === 'string' ? null : 'needs a "data" string';
  }
}

/** The sources the API takes, each with the string fields it needs. */
const IMAGE_SOURCES: Record<string, readonly string[]> = {
  base64: ['media_type', 'data'],
  url: ['url'],
};
const DOCUMENT_SOURCES: Record<string, readonly string[]> = {
  base64: ['media_type', 'data'],
  text: ['media_type', 'data'],
  url: ['url'],
};

function sourceProblem(source: unknown, kinds: Record<string, readonly string[]>): string | null {
  if (!isObject(source)) return 'needs a "source" object';
  const needs = kinds[String(source.type)];
  if (!needs)
    return `has a source of type ${JSON.stringify(source.type ?? null)}; known: ${Object.keys(kinds).join(', ')}`;
  const allowed = ['type', ...needs];
  const extra = Object.keys(source).filter((key) => !allowed.includes(key));
  if (extra.length > 0)
    return `has a source with ${extra.map((k) => JSON.stringify(k)).join(', ')}, which it may not carry`;
  const missing = needs.filter((field) => !nonEmpty(source[field]));
  return missing.length > 0 ? `has a ${String(source.type)} source without ${missing.join(', ')}` : null;
}

interface Group {
  role: 'user' | 'assistant';
  from: number;
  to: number;
  uses: { id: string; index: number }[];
  results: { id: string; index: number }[];
}

/** The messages as sent: consecutive ones of a role are one, so pairing is checked across them. */
function mergedGroups(messages: EditedMessage[]): Group[] {
  const groups: Group[] = [];
  messages.forEach((message, index) => {
    let group = groups.at(-1);
    if (!group || group.role !== message.role) {
      group = { role: message.role, from: index, to: index, uses: [], results: [] };
      groups.push(group);
    }
    group.to = index;
    for (const block of message.content) {
      if (block.type === 'tool_use') group.uses.push({ id: String(block.id), index });
      if (block.type === 'tool_result') group.results.push({ id: String(block.tool_use_id), index });
    }
  });
  return groups;
}

const label = (group: Group) =>
  group.from === group.to ? `message ${group.from}` : `messages ${group.from}–${group.to} (sent as one)`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
