import { describe, expect, it } from 'vitest';
import { withCacheBreakpoints } from '../../src/context/cache-breakpoints';
import type { ModelMessage } from '../../src/context/context-builder';

const mark = { type: 'ephemeral' };

describe('withCacheBreakpoints', () => {
  it('marks a copy: the messages given keep no cache_control', () => {
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    const parts = withCacheBreakpoints('system', [{ name: 'a' }, { name: 'b' }], messages, null);
    expect(parts.tools).toEqual([{ name: 'a' }, { name: 'b', cache_control: mark }]);
    expect(parts.system).toEqual([{ type: 'text', text: 'system', cache_control: mark }]);
    expect(parts.messages[0]!.content).toEqual([{ type: 'text', text: 'hi', cache_control: mark }]);
    expect(messages[0]!.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(parts.end).toEqual({ message: 0, block: 0 });
  });

  it('never marks thinking or empty text, and marks the previous end once when it is the end again', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: '' },
        ],
      },
    ];
    const parts = withCacheBreakpoints('s', [], messages, { message: 1, block: 0 });
    expect(parts.end).toEqual({ message: 1, block: 0 });
    const marked = parts.messages.flatMap((m) => m.content.filter((b) => 'cache_control' in b));
    expect(marked).toEqual([{ type: 'text', text: 'ok', cache_control: mark }]);
    expect(parts.tools).toEqual([]);
  });

  it('keeps the previous end marked, so a round of more than 20 blocks still finds its prefix', () => {
    const results = Array.from({ length: 25 }, (_, i) => ({
      type: 'tool_result',
      tool_use_id: `t${i}`,
      content: 'x',
    }));
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'many' }] },
      { role: 'user', content: results },
    ];
    const parts = withCacheBreakpoints('s', [], messages, { message: 0, block: 0 });
    expect(parts.messages[0]!.content[0]).toMatchObject({ cache_control: mark });
    expect(parts.messages[2]!.content[24]).toMatchObject({ cache_control: mark });
    expect(parts.end).toEqual({ message: 2, block: 24 });
  });
});
