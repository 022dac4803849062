// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { diffLines } from '../../src/components/line-diff';
import { MAX_DIFF_ROWS } from '../../src/components/tool-cards/ChangeDiff';
import { countChangedLines } from '../../src/components/tool-cards/changed-lines';
import { endedCard, openCard } from '../support/file-cards';
import '../support/lazy-bodies';

afterEach(cleanup);

const numbered = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i}`).join('\n');

function diffCounts(before: string, after: string) {
  const lines = diffLines(before, after);
  return {
    added: lines.filter((l) => l.kind === 'added').length,
    removed: lines.filter((l) => l.kind === 'removed').length,
  };
}

describe("an Edit summary's +/− counts", () => {
  it('agree with the diff when a long text changes in one line', () => {
    const before = numbered(600);
    const after = before.replace('line 300', 'line three hundred');
    expect(countChangedLines(before, after)).toEqual({ added: 1, removed: 1 });
    expect(diffCounts(before, after)).toEqual({ added: 1, removed: 1 });
  });

  it('agree with the diff for small, shared-newline, big-middle and whole replacements', () => {
    const cases: [string, string][] = [
      ['a\nb\nc\n', 'a\nB\nc\nd\n'],
      ['x', numbered(3000)],
      ['', 'one\ntwo'],
      [numbered(700, 'a'), numbered(700, 'b')],
      [`${numbered(300)}\nmid\n${numbered(300, 'z')}`, `${numbered(300)}\nMID\nmore\n${numbered(300, 'z')}`],
      // Middle above the diff's size limit: both show a plain replacement.
      [numbered(2100, 'p'), numbered(2100, 'q').replace('q 7', 'p 7')],
    ];
    for (const [before, after] of cases) {
      expect(countChangedLines(before, after)).toEqual(diffCounts(before, after));
    }
  });
});

describe('a big diff in a card', () => {
  it(`shows the first ${MAX_DIFF_ROWS} rows, and all of them when asked`, async () => {
    const after = numbered(2000, 'const v');
    openCard(endedCard('Edit', { path: 'a.ts', old_string: 'x', new_string: after }), {
      result: 'Edited a.ts',
    });
    const showAll = await screen.findByRole('button', { name: 'Show all 2,001 lines' });
    expect(document.querySelectorAll('.diff-line')).toHaveLength(MAX_DIFF_ROWS);
    expect(screen.getByText(`Showing the first ${MAX_DIFF_ROWS} of 2,001 lines of the diff.`)).toBeTruthy();
    fireEvent.click(showAll);
    await waitFor(() => expect(document.querySelectorAll('.diff-line')).toHaveLength(2001));
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });
});
