/** A line of a line diff: kept, removed from the old text, or added by the new one. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * Above this many cells (old lines × new lines between the common head and tail) the middle is shown as
 * all removed then all added: still every line, just not the shortest diff, and no frozen UI.
 */
export const MAX_LCS_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/** The middle part: a longest-common-subsequence walk, or a plain replacement when it would be too big. */
function diffMiddle(before: string[], after: string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  const removedAll = before.map((text): DiffLine => ({ kind: 'removed', text }));
  const addedAll = after.map((text): DiffLine => ({ kind: 'added', text }));
  if (n === 0 || m === 0 || n * m > MAX_LCS_CELLS) return [...removedAll, ...addedAll];
  // cell(i, j): the length of the longest common subsequence of before[i..] and after[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  const cell = (i: number, j: number): number => lcs[i * width + j] ?? 0;
  // Indexes stay in bounds; the fallback only satisfies the checker.
  const old = (i: number): string => before[i] ?? '';
  const neu = (j: number): string => after[j] ?? '';
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        old(i) === neu(j) ? cell(i + 1, j + 1) + 1 : Math.max(cell(i + 1, j), cell(i, j + 1));
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (old(i) === neu(j)) {
      lines.push({ kind: 'same', text: old(i) });
      i++;
      j++;
    } else if (cell(i + 1, j) >= cell(i, j + 1)) {
      lines.push({ kind: 'removed', text: old(i++) });
    } else {
      lines.push({ kind: 'added', text: neu(j++) });
    }
  }
  for (; i < n; i++) lines.push({ kind: 'removed', text: old(i) });
  for (; j < m; j++) lines.push({ kind: 'added', text: neu(j) });
  return lines;
}

/** Both texts as lines, and how many lines they share at the start (head) and at the end (tail). */
export function commonEnds(
  oldText: string,
  newText: string,
): { before: string[]; after: string[]; head: number; tail: number } {
  // A final line break both sides share is no line of its own; one added or removed shows as an empty line.
  const shared = oldText.endsWith('\n') && newText.endsWith('\n');
  const before = splitLines(shared ? oldText.slice(0, -1) : oldText);
  const after = splitLines(shared ? newText.slice(0, -1) : newText);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return { before, after, head, tail };
}

/** Every line of both texts, in order, each marked kept, removed or added (a unified diff's body). */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const { before, after, head, tail } = commonEnds(oldText, newText);
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  return [
    ...before.slice(0, head).map(same),
    ...diffMiddle(before.slice(head, before.length - tail), after.slice(head, after.length - tail)),
    ...before.slice(before.length - tail).map(same),
  ];
}
