import { diffLines } from '../line-diff';

/** Above this many cells (old lines × new lines) the count is a plain one: removed all, added all. */
const MAX_COUNT_CELLS = 250_000;

/**
 * How many lines a change adds and removes, as a diff would count them. Cheap enough for a summary line:
 * a big change is counted as a whole replacement rather than diffed on every render.
 */
export function countChangedLines(before: string, after: string): { added: number; removed: number } {
  const oldLines = before === '' ? 0 : before.split('\n').length;
  const newLines = after === '' ? 0 : after.split('\n').length;
  if (oldLines * newLines > MAX_COUNT_CELLS) return { added: newLines, removed: oldLines };
  let added = 0;
  let removed = 0;
  for (const line of diffLines(before, after)) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  return { added, removed };
}
