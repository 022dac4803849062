import type { DiffLine } from '../line-diff';

/** One side of a side-by-side row: a kept, removed or added line, or nothing facing a line. */
export type SideCell = { kind: 'same' | 'removed' | 'added'; text: string } | null;

export interface SideRow {
  before: SideCell;
  after: SideCell;
}

/**
 * A unified diff's lines as rows of old beside new: kept lines face themselves; each run of changed lines
 * puts its removed lines beside its added ones, in order, with empty cells where one side has more.
 */
export function sideBySideRows(lines: readonly DiffLine[]): SideRow[] {
  const rows: SideRow[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({ before: removed[i] ?? null, after: added[i] ?? null });
    }
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'same') {
      flush();
      rows.push({ before: line, after: line });
    } else if (line.kind === 'removed') removed.push(line);
    else added.push(line);
  }
  flush();
  return rows;
}
