import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/components/line-diff';
import { collapseUnchanged } from '../../src/components/tool-cards/collapse-unchanged';
import { parseListResult } from '../../src/components/tool-cards/list-result';
import { parseReadResult } from '../../src/components/tool-cards/read-result';
import {
  type SideCell,
  type SideRow,
  sideBySideRows,
} from '../../src/components/tool-cards/side-by-side-rows';

/** A row as text: each side as `kind:text`, or the marker across both. */
function rowText(row: SideRow): unknown {
  if ('marker' in row) return row.marker;
  const side = (cell: SideCell) => cell && `${cell.kind}:${cell.text}`;
  return [side(row.before), side(row.after)];
}

describe('sideBySideRows', () => {
  it('puts removed lines beside added ones, with empty cells where one side has more', () => {
    const rows = sideBySideRows(diffLines('a\nb\nc\nz', 'a\nB\nz\nnew'));
    expect(rows.map(rowText)).toEqual([
      ['same:a', 'same:a'],
      ['removed:b', 'added:B'],
      ['removed:c', null],
      ['same:z', 'same:z'],
      [null, 'added:new'],
    ]);
  });

  it('lays a marker across both columns', () => {
    expect(sideBySideRows([{ kind: 'hunk', text: '⋯ 5 unchanged lines' }]).map(rowText)).toEqual([
      '⋯ 5 unchanged lines',
    ]);
  });
});

describe('collapseUnchanged', () => {
  const file = (changed: number) =>
    Array.from({ length: 20 }, (_, i) => (i + 1 === changed ? 'CHANGED' : `line ${i + 1}`)).join('\n');

  it('keeps three lines around a change and folds the rest', () => {
    const lines = collapseUnchanged(diffLines(file(0), file(10)));
    expect(
      lines.map((line) => (line.kind === 'skipped' ? `skip ${line.count}` : `${line.kind} ${line.text}`)),
    ).toEqual([
      'skip 6',
      'same line 7',
      'same line 8',
      'same line 9',
      'removed line 10',
      'added CHANGED',
      'same line 11',
      'same line 12',
      'same line 13',
      'skip 7',
    ]);
  });

  it('folds nothing that would hide fewer than two lines', () => {
    const lines = diffLines('a\nb\nc\nd\ne\nf\ng\nh\ni', 'A\nb\nc\nd\ne\nf\ng\nh\nI');
    expect(collapseUnchanged(lines)).toEqual(lines);
  });
});

describe('parseReadResult', () => {
  it('reads a note without a total (a file too large to count)', () => {
    const text = '     5\tx\n     6\ty\n\n[Showing lines 5-6; continue with offset=7.]';
    expect(parseReadResult(text)).toEqual({ from: 5, to: 6, total: null, next: 7, code: 'x\ny', cut: [] });
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
