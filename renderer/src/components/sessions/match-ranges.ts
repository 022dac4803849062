import type { MatchRange } from '../../../../sidecar/src/protocol';

export interface SnippetPiece {
  text: string;
  match: boolean;
}

/**
 * A snippet cut at its match ranges, for <mark>s built as elements (the snippet is text, never HTML).
 * Ranges out of the text are clamped, empty ones dropped, overlapping or touching ones merged.
 */
export function splitByRanges(text: string, ranges: readonly MatchRange[]): SnippetPiece[] {
  const sorted = ranges
    .map((r) => ({ start: Math.max(0, Math.min(r.start, text.length)), end: Math.min(r.end, text.length) }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const pieces: SnippetPiece[] = [];
  let at = 0;
  for (const range of merged) {
    if (range.start > at) pieces.push({ text: text.slice(at, range.start), match: false });
    pieces.push({ text: text.slice(range.start, range.end), match: true });
    at = range.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), match: false });
  return pieces;
}
