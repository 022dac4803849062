/**
 * Characters that change what text looks like without showing themselves. An approval draws each as a
 * marker, or `notes\u202Etxt.sh` would read "noteshs.txt" and a zero-width space could hide inside a
 * command. Variation selectors are left out: emoji need them, and they reorder or hide nothing.
 */
const INVISIBLE = new RegExp(
  [
    // C0 controls but tab and line feed, DEL and the C1 controls. A carriage return is one only when
    // alone: before a line feed it is a Windows line end.
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]',
    '\\r(?!\\n)',
    // Bidi controls: embeddings, overrides, isolates and the marks.
    '[\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]',
    // Zero-width and invisible format characters, line and paragraph separators, Hangul fillers.
    '[\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B-\\u200D\\u2028\\u2029\\u2060-\\u2065\\u206A-\\u206F]',
    '[\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}]',
    // Tag characters: invisible copies of ASCII, a known way to smuggle text past a reader.
    '[\\u{E0000}-\\u{E007F}]',
  ].join('|'),
  'gu',
);

/** A run of ordinary text, or one invisible character and the marker that stands in for it. */
export type TextPiece = { kind: 'text'; text: string } | { kind: 'marker'; char: string; label: string };

/** The marker for one character: its code point, as `⟨U+202E⟩`. */
export function invisibleMarker(char: string): string {
  const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `⟨U+${code}⟩`;
}

/** The text cut into ordinary runs and invisible characters, in order; joined, the pieces are the text. */
export function splitInvisible(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const char = match[0];
    if (match.index > last) pieces.push({ kind: 'text', text: text.slice(last, match.index) });
    pieces.push({ kind: 'marker', char, label: invisibleMarker(char) });
    last = match.index + char.length;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) });
  return pieces;
}

/** How many invisible characters the text holds. */
export function countInvisible(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(INVISIBLE)) count++;
  return count;
}

/** How many invisible characters a tool input holds, in every string of it, keys included. */
export function countInvisibleIn(value: unknown): number {
  if (typeof value === 'string') return countInvisible(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countInvisibleIn(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const [key, item] of Object.entries(value)) count += countInvisible(key) + countInvisibleIn(item);
  return count;
}
