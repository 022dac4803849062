import type { DiffViewLine } from '../DiffView';

/** One side of a side-by-side row: a kept, removed or added line, or nothing facing a line. */
export type SideCell = { kind: 'same' | 'removed' | 'added'; text: string } | null;

/** A row of old beside new, or a marker across both (a run of unchanged lines left out). */
export type SideRow = { before: SideCell; after: SideCell } | { marker: string };

/**
 * A unified diff's lines as rows of old beside new: kept lines face themselves; each run of changed lines
 * puts its removed lines beside its added ones, in order, with empty cells where one side has more.
 */
export function sideBySideRows(lines: readonly DiffViewLine[]): SideRow[] {
  const rows: SideRow[] = [];
  let removed: SideCell[] = [];
  let added: SideCell[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({ before: removed[i] ?? null, after: added[i] ?? null });
    }
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'removed') removed.push(line);
    else if (line.kind === 'added') added.push(line);
    else {
      flush();
      rows.push(line.kind === 'same' ? { before: line, after: line } : { marker: line.text });
    }
  }
  flush();
  return rows;
}
