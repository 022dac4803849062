/**
 * Models trained on other agents sometimes write `final_answer = value` instead of calling
 * `final_answer(value)`; the assignment would end nothing, so it is rewritten into the call before the
 * code runs. Only a statement that starts a logical line (or follows `;`) counts, outside strings and
 * brackets; other names and comparisons are left alone.
 */
export function repairFinalAnswer(code: string): string {
  const assignment = /[ \t]*final_answer[ \t]*=(?!=)/y;
  let out = '';
  let pos = 0;
  while (pos < code.length) {
    assignment.lastIndex = pos;
    const match = assignment.exec(code);
    const exprStart = match ? pos + match[0].length : pos;
    const statement = statementEnd(code, exprStart);
    const expr = code.slice(exprStart, statement.exprEnd).trim();
    if (match && expr) {
      const indent = /^[ \t]*/.exec(match[0])![0];
      const exprEnd = exprStart + code.slice(exprStart, statement.exprEnd).trimEnd().length;
      out += `${indent}final_answer(${expr})${code.slice(exprEnd, statement.end)}`;
    } else out += code.slice(pos, statement.end);
    pos = statement.end;
  }
  return out;
}

/**
 * Where the statement from `start` ends: after its newline (or `;`) at bracket depth 0 outside strings,
 * and where its expression ends (before a trailing comment or the `;`). A simple scanner: enough to carry
 * a dict or call across lines, not a tokenizer.
 */
function statementEnd(code: string, start: number): { exprEnd: number; end: number } {
  let depth = 0;
  let comment: number | null = null;
  let i = start;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '#') {
      if (depth === 0 && comment === null) comment = i;
      const newline = code.indexOf('\n', i);
      i = newline === -1 ? code.length : newline;
      continue;
    }
    if (c === '"' || c === "'") {
      i = stringEnd(code, i);
      continue;
    }
    if (c === '\\' && code[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === '\n' || c === ';')) {
      const exprEnd = comment ?? (c === '\n' && code[i - 1] === '\r' ? i - 1 : i);
      return { exprEnd, end: i + 1 };
    }
    i++;
  }
  return { exprEnd: comment ?? code.length, end: code.length };
}

/** The index just past the string literal opening at `start` (single or triple quoted). */
function stringEnd(code: string, start: number): number {
  const quote = code[start]!;
  const triple = code.startsWith(quote.repeat(3), start);
  const closer = triple ? quote.repeat(3) : quote;
  let i = start + closer.length;
  while (i < code.length) {
    if (code[i] === '\\') i += 2;
    else if (code.startsWith(closer, i)) return i + closer.length;
    // An unterminated one-line string stops at the line's end, as Python's tokenizer would complain.
    else if (!triple && code[i] === '\n') return i;
    else i++;
  }
  return code.length;
}
