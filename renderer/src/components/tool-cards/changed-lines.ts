import { commonEnds, MAX_LCS_CELLS } from '../line-diff';

/** The length of the longest common subsequence, in one row of memory (no diff lines built). */
function commonLength(before: string[], after: string[]): number {
  let next = new Uint32Array(after.length + 1);
  let row = new Uint32Array(after.length + 1);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      row[j] = before[i] === after[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
    }
    [next, row] = [row, next];
  }
  return next[0] ?? 0;
}

/**
 * How many lines a change adds and removes, exactly as the card's diff (`diffLines`) counts them: the
 * common head and tail are kept, the middle is a longest-common-subsequence diff, or a plain replacement
 * above the same size limit. Only the count is computed, so a summary line builds no diff lines.
 */
export function countChangedLines(before: string, after: string): { added: number; removed: number } {
  const ends = commonEnds(before, after);
  const oldMiddle = ends.before.slice(ends.head, ends.before.length - ends.tail);
  const newMiddle = ends.after.slice(ends.head, ends.after.length - ends.tail);
  const n = oldMiddle.length;
  const m = newMiddle.length;
  const common = n === 0 || m === 0 || n * m > MAX_LCS_CELLS ? 0 : commonLength(oldMiddle, newMiddle);
  return { added: m - common, removed: n - common };
}
