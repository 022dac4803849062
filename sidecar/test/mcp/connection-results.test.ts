import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { convertCallResult } from '../../src/mcp/mcp-results';

describe('convertCallResult', () => {
  it('joins text blocks for the model and keeps every other block as an attachment, as it came', () => {
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: 'aW1n', mimeType: 'image/png' },
        { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'Ymlu' } },
        { type: 'resource_link', uri: 'https://example.com/x', name: 'x', description: 'an x' },
        { type: 'text', text: 'second' },
      ],
    };
    const r = convertCallResult(result);
    expect(r.isError).toBe(false);
    expect(r.text).toBe('first\nsecond');
    expect(r.attachments).toEqual([
      { type: 'image', mimeType: 'image/png', data: 'aW1n' },
      { type: 'audio', mimeType: 'audio/wav', data: 'YXVk' },
      { type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside', data: null },
      { type: 'resource', uri: 'file:///b.bin', mimeType: null, text: null, data: 'Ymlu' },
      { type: 'resource_link', uri: 'https://example.com/x', name: 'x', mimeType: null, description: 'an x' },
    ]);
  });

  it('passes isError on', () => {
    const r = convertCallResult({ content: [{ type: 'text', text: 'no such file' }], isError: true });
    expect(r).toEqual({ isError: true, text: 'no such file', attachments: [] });
  });

  it('gives structuredContent as JSON when there is no text, and not when there is', () => {
    expect(convertCallResult({ content: [], structuredContent: { t: 21 } }).text).toBe('{"t":21}');
    expect(
      convertCallResult({ content: [{ type: 'text', text: 'warm' }], structuredContent: { t: 21 } }).text,
    ).toBe('warm');
  });

  it('notes a block type it does not know instead of dropping it silently', () => {
    const r = convertCallResult({
      content: [{ type: 'hologram' } as unknown as CallToolResult['content'][number]],
    });
    expect(r.text).toBe('[unsupported content block of type "hologram"]');
  });
});
