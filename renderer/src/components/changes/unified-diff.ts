import type { DiffViewLine } from '../DiffView';

/**
 * The lines of one file's unified diff (as the changes API sends it) for DiffView: hunk headers, kept,
 * removed and added lines, and "\ No newline at end of file" notes. Everything before the first hunk
 * (`--- a/…`, `+++ b/…`) is the file's header and is left out; inside a hunk a line starting `---` is a
 * removed line, so headers are only looked for before it.
 */
export function parseUnifiedDiff(diff: string): DiffViewLine[] {
  const raw = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  const lines: DiffViewLine[] = [];
  let inHunk = false;
  for (const line of raw === '' ? [] : raw.split('\n')) {
    if (line.startsWith('@@')) {
      inHunk = true;
      lines.push({ kind: 'hunk', text: line });
      continue;
    }
    if (!inHunk) continue;
    const body = line.slice(1);
    switch (line[0]) {
      case '+':
        lines.push({ kind: 'added', text: body });
        break;
      case '-':
        lines.push({ kind: 'removed', text: body });
        break;
      case '\\':
        lines.push({ kind: 'note', text: line });
        break;
      default:
        // A context line; an empty one is a kept empty line whose leading space was trimmed.
        lines.push({ kind: 'same', text: body });
    }
  }
  return lines;
}
