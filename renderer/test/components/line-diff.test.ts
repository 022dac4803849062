import { describe, expect, it } from 'vitest';
import { type DiffLine, diffLines } from '../../src/components/line-diff';

/** A diff as unified-diff lines: ' kept', '-removed', '+added'. */
const unified = (lines: DiffLine[]) =>
  lines.map((line) => ({ same: ' ', removed: '-', added: '+' })[line.kind] + line.text);

describe('diffLines', () => {
  it('keeps the common lines and marks what changed between them', () => {
    expect(unified(diffLines('a\nb\nc\nd\ne\n', 'a\nB\nc\nd2\nd3\ne\n'))).toEqual([
      ' a',
      '-b',
      '+B',
      ' c',
      '-d',
      '+d2',
      '+d3',
      ' e',
    ]);
  });

  it('shows a removed or added final line break as an empty line', () => {
    expect(unified(diffLines('x\n', 'x'))).toEqual([' x', '-']);
    expect(unified(diffLines('', 'new\n'))).toEqual(['+new', '+']);
  });

  it('still shows every line when the texts are too big to compare line by line', () => {
    const before = Array.from({ length: 2500 }, (_, i) => `old ${i}`);
    const after = Array.from({ length: 2500 }, (_, i) => `new ${i}`);
    const lines = diffLines(['head', ...before, 'tail'].join('\n'), ['head', ...after, 'tail'].join('\n'));
    expect(lines.length).toBe(5002);
    expect(unified(lines).slice(0, 2)).toEqual([' head', '-old 0']);
    expect(unified(lines).slice(2500, 2502)).toEqual(['-old 2499', '+new 0']);
    expect(unified(lines).at(-1)).toBe(' tail');
  });
});
