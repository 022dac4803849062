import { McpConfigError } from '../mcp-config-error';

/**
 * JSON with comments and trailing commas (VS Code's JSONC), read by blanking those out and handing the rest to
 * JSON.parse. Blanking keeps every offset, so the parser's positions point into the user's own file.
 */
export function stripJsonc(text: string): string {
  const out = text.split('');
  let i = 0;
  // Where the last comma outside strings was, while only whitespace and comments follow it.
  let pendingComma = -1;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      pendingComma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      // An unclosed block comment is left for JSON.parse to report where it starts.
      if (end < 0) break;
      blank(i, end + 2);
      i = end + 2;
    } else if (c === ',') {
      pendingComma = i;
      i++;
    } else if (c === '}' || c === ']') {
      if (pendingComma >= 0) out[pendingComma] = ' ';
      pendingComma = -1;
      i++;
    } else {
      if (!/\s/.test(c)) pendingComma = -1;
      i++;
    }
  }
  return out.join('');
}

/** Line and column (1-based) of an offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** Parses a config file's text; a syntax error names the file and where in it, as the parser saw it. */
export function parseJsonc(text: string, fileLabel: string): unknown {
  // A byte order mark is common in files saved by Windows editors.
  const source = stripJsonc(text.replace(/^\uFEFF/, ' '));
  try {
    return JSON.parse(source);
  } catch (err) {
    // Some engines quote the file's text in the message; it may hold tokens, so that part is dropped.
    const message = (err instanceof Error ? err.message : String(err)).replace(/, .*is not valid JSON$/s, '');
    const position = /position (\d+)/.exec(message);
    const where =
      position !== null
        ? ` at ${lineColumn(text, Number(position[1]))}`
        : /end of (JSON )?(data|input)/i.test(message)
          ? ` at its end (${lineColumn(text, text.length)})`
          : '';
    // No `cause`: the parser's own error may quote the file.
    throw new McpConfigError(
      `${fileLabel} is not valid JSON${where}: ${message}. Fix the file, or choose another one.`,
    );
  }
}
