// What the agent's memory edits may leave: a history the Messages API accepts, refused with a message
// that names the message and says what to do.
import { describe, expect, it } from 'vitest';
import type { EditedMessage } from '../../src/context/context-state';
import {
  checkSize,
  MAX_EDITED_BYTES,
  toMessage,
  validateHistory,
} from '../../src/context/history-validation';
import { CairnError } from '../../src/errors';

const user = (...content: EditedMessage['content']): EditedMessage => ({ role: 'user', content });
const assistant = (...content: EditedMessage['content']): EditedMessage => ({ role: 'assistant', content });
const text = (t: string) => ({ type: 'text', text: t });
const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { path: 'a.txt' } });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'a' });

/** The refusal's message, or null when the history is accepted. */
function refusal(messages: EditedMessage[], reserved: string[] = []): string | null {
  try {
    validateHistory(messages, new Set(reserved));
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(CairnError);
    expect((error as CairnError).code).toBe('bad_request');
    return (error as CairnError).message;
  }
}

describe('validateHistory', () => {
  it.each([
    ['an empty history', []],
    ['one user message', [user(text('hi'))]],
    ['a round answered', [user(text('go')), assistant(text('reading'), use('t1')), user(result('t1'))]],
    [
      'parallel calls answered in one message',
      [user(text('go')), assistant(use('t1'), use('t2')), user(result('t2'), result('t1'))],
    ],
    [
      'a call answered across consecutive user messages (sent as one)',
      [
        user(text('go')),
        assistant(use('t1'), use('t2')),
        user(result('t1')),
        user(result('t2'), text('note')),
      ],
    ],
    [
      'a call and its result across consecutive assistant messages',
      [user(text('go')), assistant(text('thinking aloud')), assistant(use('t1')), user(result('t1'))],
    ],
    [
      'ending with an assistant answer',
      [user(text('go')), assistant({ type: 'thinking', thinking: 'hm', signature: 'sig' }, text('ok'))],
    ],
    [
      'images, documents and result parts',
      [
        user(text('look'), {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'AA' },
        }),
        assistant({ type: 'redacted_thinking', data: 'yy' }, text('seen')),
        user({ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' }, title: 'a' }),
        assistant({ type: 'redacted_thinking', data: 'xx' }, use('t1')),
        user({ type: 'tool_result', tool_use_id: 't1', content: [text('part')], is_error: true }),
      ],
    ],
  ] as [string, EditedMessage[]][])('accepts %s', (_name, messages) => {
    expect(refusal(messages)).toBeNull();
  });

  it.each([
    [
      'an assistant message first',
      [assistant(text('hello'))],
      'message 0 is an assistant message, but the history must start with a user message',
    ],
    [
      'a result whose call was deleted',
      [user(text('go')), assistant(text('plain')), user(result('toolu_1'))],
      'message 2 (user) has a tool_result for toolu_1 but message 1 has no tool_use with that id. A tool_use and its tool_result go together: remove or change both (replace(messages) makes several changes at once)',
    ],
    [
      'a result with nothing before it',
      [user(text('go'), result('toolu_1'))],
      'message 0 (user) has a tool_result for toolu_1 but no assistant message comes before it',
    ],
    [
      'a result answering a call two messages back',
      [user(text('go')), assistant(use('t1')), user(result('t1')), assistant(text('x')), user(result('t1'))],
      'message 4 (user) has a tool_result for t1 but message 3 has no tool_use with that id',
    ],
    [
      'a call left unanswered at the end',
      [user(text('go')), assistant(use('t1'))],
      'message 1 (assistant) ends the history with tool_use t1 unanswered',
    ],
    [
      'a call its next message does not answer',
      [user(text('go')), assistant(use('t1'), use('t2')), user(result('t1'))],
      'message 1 (assistant) has a tool_use t2 that message 2 does not answer with a tool_result',
    ],
    [
      'a call whose answer is in merged messages that miss it',
      [user(text('go')), assistant(use('t1')), user(text('a')), user(text('b'))],
      'tool_use t1 that messages 2–3 (sent as one) does not answer',
    ],
    [
      'a reused tool_use id',
      [user(text('go')), assistant(use('t1')), user(result('t1')), assistant(use('t1')), user(result('t1'))],
      'message 3 has a tool_use with id t1, which message 1 has too: tool_use ids must be unique',
    ],
    [
      'a result answering a call twice',
      [user(text('go')), assistant(use('t1')), user(result('t1'), result('t1'))],
      'message 2 (user) answers t1 twice',
    ],
    [
      'a tool_use from the user',
      [user(use('t1'))],
      'message 0 (user) block 0 is a tool_use block, which only an assistant message may hold',
    ],
    [
      'a tool_result from the assistant',
      [user(text('go')), assistant(result('t1'))],
      'message 1 (assistant) block 0 is a tool_result block, which only a user message may hold',
    ],
    [
      'a thinking block from the user',
      [user({ type: 'thinking', thinking: 'x' })],
      'is a thinking block, which only an assistant',
    ],
    [
      'an unknown block type',
      [user({ type: 'video', url: 'x' })],
      'message 0 (user) block 0 has type "video"; known types: text, image',
    ],
    [
      'a block without a type',
      [user({ kind: 'text' } as never)],
      'message 0 (user) block 0 is not a content block',
    ],
    ['an empty text', [user(text('  '))], 'message 0 (user) block 0 (text) needs a non-empty "text"'],
    ['no blocks', [user()], 'message 0 (user) has no content blocks'],
    [
      'a tool_use without an input object',
      [
        user(text('go')),
        assistant({ type: 'tool_use', id: 't1', name: 'Read', input: 'a' }),
        user(result('t1')),
      ],
      'message 1 (assistant) block 0 (tool_use) needs an "input" object',
    ],
    [
      'a tool_result with odd content',
      [user(text('go')), assistant(use('t1')), user({ type: 'tool_result', tool_use_id: 't1', content: 3 })],
      'has content that is neither a string nor a list of text, image or document blocks',
    ],
    ['an image without a source', [user({ type: 'image' })], 'block 0 (image) needs a "source" object'],
  ] as [string, EditedMessage[], string][])('refuses %s', (_name, messages, fragment) => {
    const message = refusal(messages);
    expect(message).toMatch(/^Memory edit refused: /);
    expect(message).toContain(fragment);
  });

  // Blocks the Messages API refuses: written as a version, they would make every later request of the
  // session fail, the agent unable to undo them.
  it.each([
    [
      'a cache_control mark (Cairn places the four breakpoints the API allows itself)',
      [user({ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } })],
      'block 0 (text) has "cache_control", which a text block may not carry',
    ],
    [
      'a field the API does not know',
      [user(text('go')), assistant({ ...use('t1'), extra: 1 }), user(result('t1'))],
      'block 0 (tool_use) has "extra"',
    ],
    [
      'a thinking block without its signature',
      [user(text('go')), assistant({ type: 'thinking', thinking: 'made up' }, text('ok'))],
      'block 0 (thinking) needs the "signature" the API gave it',
    ],
    ['an image with an empty source', [user({ type: 'image', source: {} })], 'has a source of type null'],
    [
      'an image source without its data',
      [user({ type: 'image', source: { type: 'base64', media_type: 'image/png' } })],
      'has a base64 source without data',
    ],
    [
      'a tool_use id the API refuses',
      [user(text('go')), assistant(use('call 1.2')), user(result('call 1.2'))],
      'block 0 (tool_use) has an "id" other than letters, digits, _ and -',
    ],
    [
      'a text part of a tool_result without text',
      [
        user(text('go')),
        assistant(use('t1')),
        user({ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text' }] }),
      ],
      'has content block 0 (text) that needs a non-empty "text"',
    ],
  ] as [string, EditedMessage[], string][])('refuses %s', (_name, messages, fragment) => {
    const message = refusal(messages);
    expect(message).toMatch(/^Memory edit refused: /);
    expect(message).toContain(fragment);
  });

  it('refuses a call that reuses the id of the round in flight', () => {
    const messages = [user(text('go')), assistant(use('toolu_running')), user(result('toolu_running'))];
    expect(refusal(messages)).toBeNull();
    expect(refusal(messages, ['toolu_running'])).toContain(
      'message 1 has a tool_use with id toolu_running, the id of a tool call running now',
    );
  });
});

describe('toMessage', () => {
  it('makes a string one text block, keeps blocks, drops other keys', () => {
    expect(toMessage({ role: 'user', content: 'hello' })).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'hello' }],
    });
    const blocks = [{ type: 'text', text: 'a' }, use('t1')];
    const message = toMessage({ role: 'assistant', content: blocks, name: 'x' });
    expect(message).toEqual({ role: 'assistant', content: blocks });
    // A copy: the caller's list changing later does not change the history.
    blocks.pop();
    expect(message.content).toHaveLength(2);
  });

  it('puts tool results first, as the API wants them in a user message', () => {
    const message = toMessage({ role: 'user', content: [text('then this'), result('t1'), text('and this')] });
    expect(message.content).toEqual([result('t1'), text('then this'), text('and this')]);
  });

  it.each([
    [null, 'the message is not a message: give {"role": "user"|"assistant", "content": str | [blocks]}'],
    [{ role: 'system', content: 'x' }, 'the message has role "system"; a role is "user" or "assistant"'],
    [{ content: 'x' }, 'the message has role null'],
    [{ role: 'user', content: '' }, 'the message has empty text content'],
    [{ role: 'user', content: 5 }, 'the message has no content: give a string or a list of content blocks'],
  ])('refuses %j', (raw, fragment) => {
    expect(() => toMessage(raw)).toThrow(fragment);
  });

  it('names the message it was given as', () => {
    expect(() => toMessage({ role: 'bot', content: 'x' }, 'message 3')).toThrow('message 3 has role "bot"');
  });
});

describe('checkSize', () => {
  const big = (chars: number) => [user(text('x'.repeat(chars)))];

  it('refuses an edit that grows the history past the limit, not one that leaves it smaller', () => {
    expect(checkSize(big(1000), 0)).toBeGreaterThan(1000);
    expect(() => checkSize(big(MAX_EDITED_BYTES), 0)).toThrow(
      /the working history would be 2\.0 MB of JSON, over the 2\.0 MB an edit may grow it to/,
    );
    // A history that was larger already may still shrink.
    expect(() => checkSize(big(MAX_EDITED_BYTES), MAX_EDITED_BYTES * 2)).not.toThrow();
  });
});
