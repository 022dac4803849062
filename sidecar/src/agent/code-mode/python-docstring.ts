/** The longest tool description a docstring keeps: whole paragraphs up to this, the first one cut if longer. */
const DESCRIPTION_LIMIT = 1500;
/** The longest argument description: one line each. */
const ARGUMENT_LIMIT = 300;

/** A tool's description for its docstring: its first paragraphs, within DESCRIPTION_LIMIT characters. */
export function trimDescription(description: string): string {
  const paragraphs = description
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.trim());
  let kept = '';
  for (const paragraph of paragraphs) {
    const next = kept ? `${kept}\n\n${paragraph}` : paragraph;
    if (next.length > DESCRIPTION_LIMIT) break;
    kept = next;
  }
  if (kept) return kept;
  // Even the first paragraph is too long: cut at its last line or sentence end before the limit.
  const head = paragraphs[0]!.slice(0, DESCRIPTION_LIMIT);
  const cut = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('. ') + 1);
  return `${(cut > DESCRIPTION_LIMIT / 2 ? head.slice(0, cut) : head).trimEnd()} …`;
}

/** An argument's description on one line, within ARGUMENT_LIMIT characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > ARGUMENT_LIMIT ? `${line.slice(0, ARGUMENT_LIMIT - 1).trimEnd()}…` : line;
}

/**
 * Text as a triple-quoted Python string indented by `indent`: backslashes, quotes that could end it and
 * control characters are escaped, so no description (an MCP server's, say) can end the string or parse badly.
 */
export function pythonDocstring(text: string, indent: string): string {
  // A quote run at the end would meet the closing quotes: each of its quotes is escaped; inside, every
  // third quote of a run is, so no `"""` ends the string early.
  const trailing = /"*$/.exec(text)![0].length;
  const core = text.slice(0, text.length - trailing);
  const body =
    core.replace(/\\/g, '\\\\').replace(/"""/g, '""\\"').split('').map(escapeControl).join('') +
    '\\"'.repeat(trailing);
  const lines = body.split('\n').map((line, i) => (i === 0 || line === '' ? line : `${indent}${line}`));
  return `${indent}"""${lines.join('\n')}${lines.length > 1 ? `\n${indent}` : ''}"""`;
}

/** A control character other than newline and tab as a `\xNN` escape (a raw one may not parse). */
function escapeControl(c: string): string {
  const code = c.charCodeAt(0);
  const control = (code < 0x20 && c !== '\n' && c !== '\t') || code === 0x7f;
  return control ? `\\x${code.toString(16).padStart(2, '0')}` : c;
}
