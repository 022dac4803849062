/** A Read result taken apart: the lines' text, the number of the first, and what its note says. */
export interface ReadLines {
  /** The first line's number (1-based). */
  from: number;
  /** The last line's number. */
  to: number;
  /** The file's line count when the note gives it (Read stopped before the end). */
  total: number | null;
  /** Where reading would go on, when Read stopped before the end. */
  next: number | null;
  /** The lines as they are in the file, without their numbers (and without Read's `[line cut]` marker). */
  code: string;
  /** The numbers of the lines Read cut at its line limit. */
  cut: number[];
}

/** Read cuts a line longer than this and marks it (sidecar/src/tools/builtin/read.ts MAX_LINE_CHARS). */
export const READ_LINE_LIMIT = 2000;
const CUT_MARK = ' [line cut]';

/** `cat -n` style lines as Read writes them: the number right-aligned in 6, a tab, the text. */
const NUMBERED = /^ *(\d+)\t(.*)$/s;
/** Read's note after a blank line when it stopped early (sidecar/src/tools/builtin/read.ts). */
const NOTE = /^\[Showing lines (\d+)-(\d+)(?: of (\d+))?; continue with offset=(\d+)\.\]$/;

/**
 * The lines of a Read result, or null when the text is not numbered lines (an empty file's sentence, a
 * preview cut mid-line, an error). Numbers must follow one another, so stray text is never mistaken.
 */
export function parseReadResult(text: string): ReadLines | null {
  const lines = text.split('\n');
  let total: number | null = null;
  let next: number | null = null;
  const last = lines.at(-1) ?? '';
  const note = NOTE.exec(last);
  if (note && lines.at(-2) === '') {
    total = note[3] === undefined ? null : Number(note[3]);
    next = Number(note[4]);
    lines.splice(-2, 2);
  }
  if (lines.length === 0) return null;
  const code: string[] = [];
  const cut: number[] = [];
  let from = 0;
  for (const [i, line] of lines.entries()) {
    const match = NUMBERED.exec(line);
    if (!match) return null;
    const number = Number(match[1]);
    if (i === 0) from = number;
    else if (number !== from + i) return null;
    const body = match[2] ?? '';
    // Only a line cut at the limit carries the marker; the same words in a shorter line are the file's.
    if (body.length === READ_LINE_LIMIT + CUT_MARK.length && body.endsWith(CUT_MARK)) {
      cut.push(number);
      code.push(body.slice(0, READ_LINE_LIMIT));
    } else code.push(body);
  }
  return { from, to: from + code.length - 1, total, next, code: code.join('\n'), cut };
}
