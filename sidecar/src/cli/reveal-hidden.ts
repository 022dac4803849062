/**
 * Whether a code point hides or reorders text on a terminal: control characters (C0 but tab and newline,
 * DEL, C1; ESC among them starts terminal control sequences), bidirectional embeddings, overrides, isolates
 * and marks (a Trojan Source line reads differently than it runs), zero-width characters and the BOM.
 */
function isHidden(code: number): boolean {
  if (code === 0x09 || code === 0x0a) return false;
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/** The text with every hidden character written as `\uXXXX`, and how many there were. */
export function revealHidden(text: string): { text: string; hidden: number } {
  let hidden = 0;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (isHidden(code)) {
      hidden += 1;
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      out += char;
    }
  }
  return hidden === 0 ? { text, hidden } : { text: out, hidden };
}

/** The warning line for `hidden` characters shown escaped. */
export function hiddenWarning(hidden: number): string {
  return (
    `⚠ ${hidden} invisible or direction-changing character${hidden === 1 ? '' : 's'} shown as \\uXXXX: ` +
    'the text may not do what it seems to say.'
  );
}
