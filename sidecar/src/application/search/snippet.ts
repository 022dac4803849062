import type { MatchRange } from '../../protocol';
import { isCjk } from '../../store/search-text';

/** About how long a snippet is, before the "…" marks. */
export const SNIPPET_CHARS = 160;
/** How much comes before the first match, so it is read in its sentence. */
const LEAD = 40;
const ELLIPSIS = '…';

/**
 * Folds one character the way the index does (unicode61 remove_diacritics, case-insensitive), keeping
 * its length so positions in the folded text are positions in the original.
 */
function foldChar(char: string): string {
  const folded = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.length === char.length ? folded : char;
}

const fold = (text: string): string => Array.from(text, foldChar).join('');

const isWordChar = (char: string | undefined): boolean =>
  char !== undefined && /[\p{L}\p{N}\p{M}]/u.test(char);

/**
 * Every occurrence of the terms in `text`, sorted and not overlapping. A Latin word matches whole words only
 * (the index matches tokens); a CJK term matches anywhere (its bigrams sit inside longer words).
 */
export function findMatches(text: string, terms: readonly string[]): MatchRange[] {
  const haystack = fold(text);
  const found: MatchRange[] = [];
  for (const term of terms) {
    const needle = fold(term);
    if (!needle) continue;
    const anywhere = [...needle].some(isCjk);
    for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (anywhere || (!isWordChar(haystack[at - 1]) && !isWordChar(haystack[end])))
        found.push({ start: at, end });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: MatchRange[] = [];
  for (const range of found) {
    const last = merged.at(-1);
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** Moves a cut off the middle of a surrogate pair, so a snippet never holds half an emoji. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * A plain-text window of the original text around its first match, with "…" where it was cut, and the
 * ranges (UTF-16, end exclusive) of every term in it. Whitespace runs read as one space.
 */
export function makeSnippet(
  original: string,
  terms: readonly string[],
  size = SNIPPET_CHARS,
): { snippet: string; match_ranges: MatchRange[] } {
  // Composed first: a decomposed accent (macOS file names are NFD) folds char by char only once composed.
  const text = original.normalize('NFC').replace(/\s+/gu, ' ').trim();
  terms = terms.map((term) => term.normalize('NFC'));
  const first = findMatches(text, terms)[0];
  let start = first ? Math.max(0, first.start - LEAD) : 0;
  let end = Math.min(text.length, start + size);
  // Near the end, the window slides back so it stays full.
  start = Math.max(0, Math.min(start, end - size));
  if (first && first.end > end) end = Math.min(text.length, first.end);
  start = safeCut(text, start);
  end = safeCut(text, end);
  const head = start > 0 ? ELLIPSIS : '';
  const tail = end < text.length ? ELLIPSIS : '';
  const snippet = `${head}${text.slice(start, end)}${tail}`;
  // Found again in the snippet itself: a term cut at the window's edge is not marked.
  return { snippet, match_ranges: findMatches(snippet, terms) };
}
