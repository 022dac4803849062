import type { DiffLine } from '../line-diff';

/** A diff line, or a run of kept lines left out between changes. */
export type CollapsedLine = DiffLine | { kind: 'skipped'; count: number };

/** Kept lines shown on each side of a change. */
export const CONTEXT_LINES = 3;

/**
 * The diff with long runs of kept lines folded into one "N unchanged lines" marker, keeping `context`
 * lines next to each change, as a unified diff's hunks do. A run is folded only when that hides two lines
 * or more. A whole-file diff (Write) then shows what changed, not the file again.
 */
export function collapseUnchanged(lines: readonly DiffLine[], context = CONTEXT_LINES): CollapsedLine[] {
  const out: CollapsedLine[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]?.kind !== 'same') {
      out.push(lines[i] as DiffLine);
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end]?.kind === 'same') end++;
    const head = i === 0 ? 0 : context;
    const tail = end === lines.length ? 0 : context;
    const hidden = end - i - head - tail;
    if (hidden >= 2) {
      out.push(
        ...lines.slice(i, i + head),
        { kind: 'skipped', count: hidden },
        ...lines.slice(end - tail, end),
      );
    } else {
      out.push(...lines.slice(i, end));
    }
    i = end;
  }
  return out;
}
