import { McpConfigError } from './mcp-config-error';

/**
 * A stdio server's command line: one string, read like a POSIX shell reads one simple command, because that
 * is how people copy commands from READMEs. We spawn without a shell, so only quoting is honoured:
 * - spaces and tabs separate words; a line break may only end the line (in sh it would end the command, and a
 *   second one is never run here), unless quoted or escaped with a backslash;
 * - '…' is literal; "…" is literal except that a backslash escapes " \ $ ` (and a backslash-newline is
 *   removed), as in sh; outside quotes a backslash escapes any character (a backslash-newline is removed);
 * - '' and "" make empty words;
 * - no expansion of any kind ($VAR, ~, globs, `…`) and no operators: | ; & && > < # are ordinary characters,
 *   so `a | b` passes "|" and "b" to a as arguments. Nothing here can start a second program.
 */
export interface CommandLine {
  program: string;
  args: string[];
}

const SPACE = new Set([' ', '\t', '\n', '\r']);
const DOUBLE_QUOTE_ESCAPES = new Set(['"', '\\', '$', '`']);

export function parseCommandLine(line: string): CommandLine {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  // Positions are 1-based character columns, as an editor shows them.
  const at = (index: number): string => `at character ${index + 1}`;
  while (i < line.length) {
    const c = line[i]!;
    if (SPACE.has(c)) {
      if ((c === '\n' || c === '\r') && line.slice(i).trim() !== '') {
        throw new McpConfigError(
          `The command line has a line break ${at(i)}: a command is one line. Join the lines, or end each with \\ to continue it, as in a shell.`,
        );
      }
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) {
        throw new McpConfigError(
          `The command line has a single quote ${at(i)} that is never closed: add the closing '.`,
        );
      }
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      const start = i;
      i++;
      for (;;) {
        if (i >= line.length) {
          throw new McpConfigError(
            `The command line has a double quote ${at(start)} that is never closed: add the closing ".`,
          );
        }
        const d = line[i]!;
        if (d === '"') break;
        const next = line[i + 1];
        if (d === '\\' && next !== undefined && DOUBLE_QUOTE_ESCAPES.has(next)) {
          word += next;
          i += 2;
        } else if (d === '\\' && next === '\n') {
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === '\\') {
      const next = line[i + 1];
      if (next === undefined) {
        throw new McpConfigError(
          `The command line ends with a backslash ${at(i)} that escapes nothing: remove it, or quote it as '\\'.`,
        );
      }
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  const [program, ...args] = words;
  if (program === undefined) {
    throw new McpConfigError(
      'The command line is empty: give the program to start, e.g. "npx -y my-mcp-server".',
    );
  }
  if (program === '')
    throw new McpConfigError('The command line starts with an empty program name ("" or \'\').');
  return { program, args };
}

/** Words that any POSIX shell, and our parser, read as they are. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word as the parser (and a POSIX shell) reads it back: plain when safe, else in single quotes. */
export function quoteWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The inverse of parseCommandLine: parseCommandLine(formatCommandLine(p, a)) gives back p and a. */
export function formatCommandLine(program: string, args: readonly string[]): string {
  if (program === '') throw new McpConfigError('A command line needs a program name; it is empty.');
  return [program, ...args].map(quoteWord).join(' ');
}
