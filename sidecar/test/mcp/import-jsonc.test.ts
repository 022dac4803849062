import { describe, expect, it } from 'vitest';
import { parseJsonc, stripJsonc } from '../../src/mcp/import/jsonc';
import { McpConfigError } from '../../src/mcp/mcp-config-error';

describe('JSONC', () => {
  it('reads comments and trailing commas, and leaves look-alikes inside strings alone', () => {
    const text = `{
      // a line comment, with "quotes"
      "url": "http://a//b", /* block
      comment */ "list": [1, 2,],
      "text": "/* not a comment */ ,] \\" // still text",
      "nested": { "a": [ { }, ], },
    }`;
    expect(parseJsonc(text, 'f')).toEqual({
      url: 'http://a//b',
      list: [1, 2],
      text: '/* not a comment */ ,] " // still text',
      nested: { a: [{}] },
    });
  });

  it('keeps offsets, so positions point into the original text', () => {
    const text = '{"a": 1, // c\n"b": [2,]}';
    const stripped = stripJsonc(text);
    expect(stripped).toHaveLength(text.length);
    expect(stripped.indexOf('"b"')).toBe(text.indexOf('"b"'));
  });

  it('reads a BOM-prefixed file', () => {
    expect(parseJsonc('\uFEFF{"a":1}', 'f')).toEqual({ a: 1 });
  });

  it('names the file and the line and column of a syntax error', () => {
    const error = (() => {
      try {
        parseJsonc('{\n  "a": 1\n  "b": 2\n}', '/x/mcp.json');
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(McpConfigError);
    expect((error as Error).message).toMatch(/^\/x\/mcp\.json is not valid JSON at line 3, column 3/);
  });

  it('says when the file ends too early, and never quotes the file back', () => {
    expect(() => parseJsonc('{"token": "ghp_secret"', 'f')).toThrow(/not valid JSON/);
    expect(() => parseJsonc('', 'f')).toThrow(/at its end/);
    // Node quotes the text for an unexpected token: `Unexpected token 'g', "{"token": ghp_…" is not valid JSON`.
    expect(() => parseJsonc('{"token": ghp_secret}', 'f')).toThrow(McpConfigError);
    expect(() => parseJsonc('{"token": ghp_secret}', 'f')).not.toThrow(/ghp_secret/);
  });
});
