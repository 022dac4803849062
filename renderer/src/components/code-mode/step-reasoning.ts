/**
 * A code-mode reply's reasoning: its text without the code block the step ran (shown in the step's own
 * card). The block is `<code>…</code>`, possibly unclosed at the end (`</code>` is a stop sequence), or
 * else the last ```python fence; a reply with neither was all code (the parser ran the whole text).
 */
export function stepReasoning(text: string): string {
  const open = text.indexOf('<code>');
  if (open !== -1) {
    const close = text.indexOf('</code>', open);
    const after = close === -1 ? '' : text.slice(close + '</code>'.length);
    return tidy(text.slice(0, open) + after);
  }
  const fences = [...text.matchAll(/```(?:python|py)[^\S\n]*\n/g)];
  const last = fences.at(-1);
  if (last?.index !== undefined) {
    const bodyStart = last.index + last[0].length;
    const close = text.indexOf('```', bodyStart);
    const after = close === -1 ? '' : text.slice(close + 3);
    return tidy(text.slice(0, last.index) + after);
  }
  return '';
}

function tidy(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n').trim();
}
