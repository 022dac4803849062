/** How many lines of a long output a card shows from its start and from its end. */
export const HEAD_LINES = 20;
export const TAIL_LINES = 20;
/** Characters kept of each part, so one huge line cannot freeze the card. */
const PART_MAX_CHARS = 20_000;

export interface HeadTail {
  head: string;
  /** Null when the whole text is in `head`. */
  tail: string | null;
  omittedLines: number;
  totalLines: number;
}

/** A long text's first and last lines with how many were left out between them. */
export function headAndTail(text: string, headLines = HEAD_LINES, tailLines = TAIL_LINES): HeadTail {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  const total = lines.length;
  const fits = total <= headLines + tailLines && body.length <= PART_MAX_CHARS * 2;
  if (fits) return { head: body, tail: null, omittedLines: 0, totalLines: total };
  const shownHead = Math.min(headLines, total);
  const shownTail = Math.min(tailLines, total - shownHead);
  const head = lines.slice(0, shownHead).join('\n').slice(0, PART_MAX_CHARS);
  const tail = lines
    .slice(total - shownTail)
    .join('\n')
    .slice(-PART_MAX_CHARS);
  return { head, tail, omittedLines: total - shownHead - shownTail, totalLines: total };
}
