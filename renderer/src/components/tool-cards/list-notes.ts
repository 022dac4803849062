import type { Translate } from '../../i18n/i18n';
import '../../i18n/messages/file-cards';

// Glob and Grep write their notes for the model, in English (sidecar/src/tools/builtin/glob.ts, grep.ts).
// The card says the ones it knows in the UI's language; any other text shows as the tool wrote it.

type Format = (n: number) => string;

const NOTES: { pattern: RegExp; say(m: RegExpExecArray, t: Translate, n: Format): string }[] = [
  {
    pattern: /^\[Showing the first (\d+) matches; narrow the pattern, path or glob\.\]$/,
    say: (m, t, n) => t('file.list.note.firstMatches', { count: n(Number(m[1])) }),
  },
  {
    pattern: /^\[Showing the (\d+) newest of (\d+) files; use a narrower pattern or path\.\]$/,
    say: (m, t, n) => t('file.list.note.newest', { shown: n(Number(m[1])), total: n(Number(m[2])) }),
  },
  {
    pattern: /^\[Some files could not be searched: (.*)\]$/s,
    say: (m, t) => t('file.list.note.unsearched', { message: m[1] ?? '' }),
  },
  {
    pattern: /^No matches for \/(.*)\/ in (.*)\.$/s,
    say: (m, t) => t('file.list.none.grep', { pattern: m[1] ?? '', path: m[2] ?? '' }),
  },
  {
    pattern: /^No files match "(.*)" in (.*?)\. \(Files ignored by \.gitignore/s,
    say: (m, t) => t('file.list.none.glob', { pattern: m[1] ?? '', path: m[2] ?? '' }),
  },
];

/** A Glob or Grep note, or its "nothing found" sentence, in the UI's language when the card knows it. */
export function listNoteText(note: string, t: Translate, formatNumber: Format): string {
  for (const { pattern, say } of NOTES) {
    const match = pattern.exec(note);
    if (match) return say(match, t, formatNumber);
  }
  return note;
}
