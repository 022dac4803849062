import { describe, expect, it } from 'vitest';
import { formatCost } from '../../src/components/cost-format';
import { fileNameFor } from '../../src/components/download-blob';
import { splitByRanges } from '../../src/components/sessions/match-ranges';

describe('a search snippet cut at its match ranges', () => {
  it('marks each range, merging overlaps, clamping to the text, dropping empty ones', () => {
    const pieces = splitByRanges('find the needle, then the other needle', [
      { start: 26, end: 38 },
      { start: 9, end: 15 },
      { start: 12, end: 14 },
      { start: 5, end: 5 },
      { start: 36, end: 99 },
    ]);
    expect(pieces).toEqual([
      { text: 'find the ', match: false },
      { text: 'needle', match: true },
      { text: ', then the ', match: false },
      { text: 'other needle', match: true },
    ]);
    expect(splitByRanges('plain', [])).toEqual([{ text: 'plain', match: false }]);
    expect(splitByRanges('ab', [{ start: 5, end: 9 }])).toEqual([{ text: 'ab', match: false }]);
  });
});

describe('file names and costs', () => {
  it('names an export after its session, safely', () => {
    expect(fileNameFor('Fix: a/b <c>?', 'md')).toBe('Fix- a-b -c-.md');
    expect(fileNameFor('  ...  ', 'json')).toBe('session.json');
    expect(fileNameFor('x'.repeat(200), 'json')).toBe(`${'x'.repeat(80)}.json`);
  });

  it('shows fractions of a cent, and cents for larger sums', () => {
    expect(formatCost('en', 0.0123)).toBe('$0.0123');
    expect(formatCost('en', 0.5)).toBe('$0.50');
    expect(formatCost('en', 12.3456)).toBe('$12.35');
    expect(formatCost('en', 0)).toBe('$0.00');
  });
});
