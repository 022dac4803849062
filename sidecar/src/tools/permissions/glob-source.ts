/** Regular-expression text for rules' globs: the one escaping and the one reading of `*` and `?`. */

/** `text` matched literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A glob's regular-expression text: `*` is `any` (any characters of a name or a word), `?` is `one`, every
 * other character itself.
 */
export function globSource(glob: string, wildcards: { any: string; one: string }): string {
  let source = '';
  for (const c of glob) source += c === '*' ? wildcards.any : c === '?' ? wildcards.one : escapeRegExp(c);
  return source;
}
