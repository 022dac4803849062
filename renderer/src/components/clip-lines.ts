/** Lines of output shown inside a card; the rest is one click away ("Show full result"). */
export const CARD_MAX_LINES = 200;

const CARD_MAX_CHARS = 40_000;

/** Keeps the first (or, for live output, the last) lines and characters that a card shows. */
export function clipLines(
  text: string,
  from: 'head' | 'tail',
  maxLines = CARD_MAX_LINES,
  maxChars = CARD_MAX_CHARS,
): { text: string; totalLines: number; shownLines: number; clipped: boolean } {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  let kept =
    lines.length > maxLines ? (from === 'head' ? lines.slice(0, maxLines) : lines.slice(-maxLines)) : lines;
  let joined = kept.join('\n');
  let clipped = kept.length < lines.length;
  if (joined.length > maxChars) {
    joined = from === 'head' ? joined.slice(0, maxChars) : joined.slice(-maxChars);
    kept = joined.split('\n');
    clipped = true;
  }
  return { text: joined, totalLines: lines.length, shownLines: kept.length, clipped };
}
