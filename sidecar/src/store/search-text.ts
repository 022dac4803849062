/**
 * How text becomes searchable. FTS5's unicode61 tokenizer keeps a run of Chinese (or Japanese) characters as
 * one token, so "数据库迁移" could only be found whole. Such runs are indexed as overlapping bigrams, plus the
 * run's last character alone so a single character is found by a prefix query; queries are cut the same way.
 */

/** Scripts written without spaces between words (Hangul has spaces, but short words fare better as bigrams). */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** What unicode61 keeps in a token: a term without any of these has nothing to find. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

export const isCjk = (char: string): boolean => CJK_CHAR.test(char);

/** A run's overlapping bigrams, then its last character (a one-character run is just itself). */
function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  out.push(chars.at(-1)!);
  return out;
}

/** The text handed to FTS5: the original with every CJK run spelled as its bigrams. */
export function toIndexText(text: string): string {
  return text.replace(CJK_RUN, (run) => ` ${bigrams(run).join(' ')} `);
}

export interface MatchQuery {
  /** An FTS5 MATCH expression built only from quoted phrases, so no input is an FTS5 syntax error. */
  match: string;
  /** The words to mark in a snippet, as the person typed them. */
  terms: string[];
}

const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The MATCH expression for what a person typed: every whitespace-separated word must occur (AND). A Latin word
 * is a quoted phrase (FTS5's tokenizer splits `foo_bar` into the phrase "foo bar"); a CJK run of two or more
 * characters is the phrase of its bigrams; a single CJK character is a prefix. Null when nothing is left to
 * find (only punctuation).
 */
export function toMatchQuery(input: string): MatchQuery | null {
  const phrases: string[] = [];
  const terms: string[] = [];
  for (const word of input.split(/\s+/u)) {
    // A word like "数据库migration" holds both: each piece is its own phrase.
    let last = 0;
    for (const m of word.matchAll(CJK_RUN)) {
      addLatin(word.slice(last, m.index), phrases, terms);
      const chars = [...m[0]];
      phrases.push(chars.length === 1 ? `${quote(m[0])}*` : quote(bigrams(m[0]).slice(0, -1).join(' ')));
      terms.push(m[0]);
      last = m.index + m[0].length;
    }
    addLatin(word.slice(last), phrases, terms);
  }
  if (phrases.length === 0) return null;
  return { match: phrases.join(' AND '), terms: [...new Set(terms)] };
}

function addLatin(piece: string, phrases: string[], terms: string[]): void {
  if (!WORD_CHAR.test(piece)) return;
  phrases.push(quote(piece));
  // Marked as its words: the phrase "foo bar" also matches foo-bar and foo_bar.
  for (const w of piece.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) terms.push(w);
}
