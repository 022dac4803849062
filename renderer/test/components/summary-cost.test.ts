import { describe, expect, it } from 'vitest';
import { boundedJson } from '../../src/components/bounded-json';
import { summarizeCall } from '../../src/components/tool-cards/call-summary';
import { oneLine, readableArguments } from '../../src/components/tool-summary';

// A collapsed card's summary runs on every mount (turns are virtualized): it must read only what the line
// can show, however big the call's arguments are.

const t = (key: string) => key;

describe('a summary of huge arguments', () => {
  it('reads only the start of a long string argument', () => {
    const huge = 'y '.repeat(2_500_000);
    const args = readableArguments({ body: huge, tail: 'never shown' });
    expect(args.length).toBeLessThan(2_000);
    expect(args.startsWith('body: y y y')).toBe(true);
    expect(summarizeCall({ name: 'mcp__s__t', input: { body: huge }, meta: null }, t)).toHaveLength(240);
  });

  it('stops writing a big object as JSON once the line is full', () => {
    let written = 0;
    const item = {
      toJSON() {
        written++;
        return { id: written, text: 'row' };
      },
    };
    const rows = Array.from({ length: 100_000 }, () => item);
    const args = readableArguments({ rows });
    expect(args.startsWith('rows: [{"id":1,"text":"row"},{"id":2')).toBe(true);
    expect(args.length).toBeLessThan(2_000);
    expect(written).toBeLessThan(100);
  });

  it('writes small values as compact JSON, as before', () => {
    const value = { a: [1, 'two', null, undefined, true], b: { c: 'd' }, skip: undefined, n: 1.5 };
    expect(boundedJson(value, 1_000)).toBe(JSON.stringify(value));
    expect(readableArguments({ message: 'hi', n: 2, opts: { x: 1 }, gone: undefined })).toBe(
      'message: hi, n: 2, opts: {"x":1}, gone: undefined',
    );
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(boundedJson(cyclic, 1_000)).toBe('{"name":"loop","self":[Circular]}');
    expect(oneLine(`  a\n\n b ${'c'.repeat(10_000)}`)).toMatch(/^a b c+…$/);
  });
});
