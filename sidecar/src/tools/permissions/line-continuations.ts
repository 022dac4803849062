import type { Node } from 'web-tree-sitter';
import type { BashParser } from './shell-parser';

/** A command line with its line continuations joined as bash joins them. */
export interface JoinedLines {
  /** The text with every `\<newline>` bash removes removed (the same text when there is none). */
  text: string;
  /**
   * Why the joined text cannot be vouched for, or null: a continuation inside a word (`r\<newline>m`),
   * where tree-sitter ends the word and bash does not, or one inside an unquoted heredoc's body.
   */
  problem: string | null;
}

/**
 * Bash removes a backslash-newline pair before it splits words, except inside single quotes, `$'…'`,
 * comments and the body of a heredoc whose delimiter is quoted. tree-sitter ends a word there instead, so
 * `r\<newline>m x` reads as `r` with arguments while bash runs `rm x`. This gives the text bash reads.
 */
export function joinLineContinuations(parser: BashParser, command: string): JoinedLines {
  if (!/\\\r?\n/.test(command)) return { text: command, problem: null };
  const kept = parser.withTree(command, keptRanges) ?? [];
  let text = '';
  let problem: string | null = null;
  let range = 0;
  let i = 0;
  while (i < command.length) {
    while (range < kept.length && (kept[range] as Range).end <= i) range += 1;
    const current = kept[range];
    if (current !== undefined && current.start <= i) {
      if (current.heredoc && /\\\n/.test(command.slice(i, current.end))) {
        problem ??= 'A heredoc body holds a line continuation, which bash joins before reading it.';
      }
      text += command.slice(i, current.end);
      i = current.end;
      continue;
    }
    const c = command[i] as string;
    if (c === '\\' && command[i + 1] === '\n') {
      const before = text[text.length - 1];
      const after = command[i + 2];
      if (before !== undefined && after !== undefined && /\S/.test(before) && /\S/.test(after)) {
        problem ??=
          'A line continuation splits a word (`\\` at the end of a line inside it), which bash joins into one word.';
      }
      i += 2;
      continue;
    }
    // An escaped character (`\\`, `\'`) is kept with its backslash.
    const step = c === '\\' ? 2 : 1;
    text += command.slice(i, i + step);
    i += step;
  }
  return { text, problem };
}

interface Range {
  start: number;
  end: number;
  /** The body of a heredoc whose delimiter is not quoted (bash joins lines in it). */
  heredoc: boolean;
}

/** The parts of the text where bash keeps `\<newline>` as it is, in order. */
function keptRanges(root: Node): Range[] {
  const ranges: Range[] = [];
  const visit = (node: Node) => {
    if (node.type === 'raw_string' || node.type === 'ansi_c_string' || node.type === 'comment') {
      ranges.push({ start: node.startIndex, end: node.endIndex, heredoc: false });
      return;
    }
    if (node.type === 'heredoc_body') {
      const start = node.parent?.children.find((c) => c.type === 'heredoc_start')?.text ?? '';
      ranges.push({ start: node.startIndex, end: node.endIndex, heredoc: !/['"\\]/.test(start) });
      return;
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return ranges.sort((a, b) => a.start - b.start);
}
