import { describe, expect, it } from 'vitest';
import { markMatches } from '../../src/cli/search-command';

describe('markMatches (how cairn search shows a snippet)', () => {
  it('brackets the matches off a terminal and bolds them on one', () => {
    const ranges = [
      { start: 14, end: 21 },
      { start: 0, end: 3 },
    ];
    expect(markMatches('The secret is giraffe.', ranges, false)).toBe('[The] secret is [giraffe].');
    expect(markMatches('The secret is giraffe.', ranges, true)).toBe(
      '\x1b[1mThe\x1b[22m secret is \x1b[1mgiraffe\x1b[22m.',
    );
  });

  it('keeps the snippet on one line and skips ranges that overlap or fall outside it', () => {
    const ranges = [
      { start: 0, end: 4 },
      { start: 2, end: 6 },
      { start: 30, end: 40 },
    ];
    expect(markMatches('cats\n\n  and dogs', ranges, false)).toBe('[cats] and dogs');
  });
});
