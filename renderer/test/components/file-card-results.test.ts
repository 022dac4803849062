import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/components/line-diff';
import { parseListResult } from '../../src/components/tool-cards/list-result';
import { parseReadResult } from '../../src/components/tool-cards/read-result';
import { sideBySideRows } from '../../src/components/tool-cards/side-by-side-rows';

describe('sideBySideRows', () => {
  it('puts removed lines beside added ones, with empty cells where one side has more', () => {
    const rows = sideBySideRows(diffLines('a\nb\nc\nz', 'a\nB\nz\nnew'));
    const text = rows.map(({ before, after }) => [
      before && `${before.kind}:${before.text}`,
      after && `${after.kind}:${after.text}`,
    ]);
    expect(text).toEqual([
      ['same:a', 'same:a'],
      ['removed:b', 'added:B'],
      ['removed:c', null],
      ['same:z', 'same:z'],
      [null, 'added:new'],
    ]);
  });
});

describe('parseReadResult', () => {
  it('reads a note without a total (a file too large to count)', () => {
    const text = '     5\tx\n     6\ty\n\n[Showing lines 5-6; continue with offset=7.]';
    expect(parseReadResult(text)).toEqual({ from: 5, to: 6, total: null, next: 7, code: 'x\ny' });
  });

  it('keeps a tab inside a line, and refuses text whose numbers do not follow', () => {
    expect(parseReadResult('     1\ta\tb')?.code).toBe('a\tb');
    expect(parseReadResult('     1\ta\n     3\tb')).toBeNull();
    expect(parseReadResult('"x" is empty.')).toBeNull();
  });
});

describe('parseListResult', () => {
  it('takes the shortest path before :line: so a Windows drive or a colon in the text is kept', () => {
    const result = parseListResult('Grep', 'C:\\work\\a.ts:12:a: b:3:c\nodd line');
    expect(result).toEqual({
      kind: 'found',
      matchCount: 2,
      notes: [],
      entries: [
        { path: 'C:\\work\\a.ts', matches: [{ line: 12, text: 'a: b:3:c' }] },
        { path: 'odd line', matches: [{ line: null, text: '' }] },
      ],
    });
  });

  it("keeps Glob's note, and a line in brackets that is a path stays a path", () => {
    const result = parseListResult(
      'Glob',
      '[id].tsx\na.ts\n\n[Showing the 1000 newest of 2000 files; use a narrower pattern or path.]',
    );
    expect(result).toMatchObject({
      entries: [{ path: '[id].tsx' }, { path: 'a.ts' }],
      notes: ['[Showing the 1000 newest of 2000 files; use a narrower pattern or path.]'],
    });
  });
});
