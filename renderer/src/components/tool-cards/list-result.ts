/** One Grep match: its line number and text (null when the line did not read as `path:line:text`). */
export interface ListMatch {
  line: number | null;
  text: string;
}

/** A path Glob listed, or a file Grep matched in with its matching lines in order. */
export interface ListEntry {
  path: string;
  matches: ListMatch[];
}

export type ListResult =
  /** "No files match…", "No matches for…": nothing found, said as the tool said it. */
  | { kind: 'none'; text: string }
  | { kind: 'found'; entries: ListEntry[]; matchCount: number; notes: string[] };

/** `path:line:text` as Grep (and ripgrep) writes a match; the path is the shortest that fits. */
const MATCH = /^(.+?):(\d+):(.*)$/s;
/** A note the tool adds after a blank line: `[Showing the first 500 matches; …]`. */
const NOTE = /^\[.*\]$/s;

/** The notes at the end of a result (after its last blank line), and the lines before them. */
function splitNotes(text: string): { lines: string[]; notes: string[] } {
  const lines = text.replace(/\n+$/, '').split('\n');
  const blank = lines.lastIndexOf('');
  if (blank < 0) return { lines, notes: [] };
  const tail = lines.slice(blank + 1);
  if (tail.length === 0 || !tail.every((line) => NOTE.test(line))) return { lines, notes: [] };
  return { lines: lines.slice(0, blank), notes: tail };
}

/** The files Grep matched in, in order, with their line counts (its meta); null for older calls. */
export type GrepFiles = { path: string; count: number }[];

export function grepFiles(meta: Record<string, unknown> | null | undefined): GrepFiles | null {
  const files = meta?.files;
  if (!Array.isArray(files)) return null;
  const valid = files.every(
    (f) =>
      typeof f?.path === 'string' && typeof f?.count === 'number' && Number.isInteger(f.count) && f.count > 0,
  );
  return valid ? (files as GrepFiles) : null;
}

/** Each line's path as Grep's meta gives it, or null when the lines do not begin with those paths. */
function knownPaths(lines: string[], files: GrepFiles): string[] | null {
  const paths: string[] = [];
  for (const file of files) for (let i = 0; i < file.count; i++) paths.push(file.path);
  const content = lines.filter((line) => line !== '');
  if (paths.length !== content.length) return null;
  return content.every((line, i) => line.startsWith(`${paths[i]}:`)) ? paths : null;
}

const LINE_AND_TEXT = /^(\d+):(.*)$/s;

/**
 * A Glob or Grep result as a list: Glob's paths each an entry; Grep's `path:line:text` lines grouped by
 * their path (the tool sorts them by path), split at the paths Grep names in its meta when it does (a
 * path may hold `:10:`), else at the shortest path that fits. Bracketed notes at the end are kept as notes.
 */
export function parseListResult(
  tool: 'Glob' | 'Grep',
  text: string,
  files: GrepFiles | null = null,
): ListResult {
  if (/^No (files match|matches for) /.test(text)) return { kind: 'none', text };
  const { lines, notes } = splitNotes(text);
  const entries: ListEntry[] = [];
  const paths = tool === 'Grep' && files ? knownPaths(lines, files) : null;
  let matchCount = 0;
  for (const line of lines) {
    if (line === '') continue;
    if (tool === 'Glob') {
      entries.push({ path: line, matches: [] });
      continue;
    }
    const known = paths?.[matchCount];
    const rest = known === undefined ? null : LINE_AND_TEXT.exec(line.slice(known.length + 1));
    const match = rest ? [line, known, rest[1], rest[2]] : MATCH.exec(line);
    const path = match?.[1] ?? line;
    const found: ListMatch = match
      ? { line: Number(match[2]), text: match[3] ?? '' }
      : { line: null, text: '' };
    matchCount++;
    const last = entries.at(-1);
    if (last && last.path === path) last.matches.push(found);
    else entries.push({ path, matches: [found] });
  }
  return { kind: 'found', entries, matchCount, notes };
}
