import { programBaseName } from './command-wrappers';
import { escapeRegExp } from './glob-source';
import type { ShellWord } from './shell-words';

/**
 * A rule's command pattern for Bash and Exec: words separated by spaces, each a glob (`*` any characters,
 * `?` one) over one normalised word; a last standalone `*` means "and any arguments, or none". Quoting
 * (`'a b'`, `"*"`, `\*`) makes spaces and glob characters literal.
 */
export interface CommandPattern {
  words: PatternWord[];
  /** The pattern ends in a standalone `*`: any remaining words, or none, match. */
  anyRest: boolean;
}

interface PatternWord {
  /** A standalone unquoted `*`: any one word, even one only known when the command runs. */
  star: boolean;
  exact: RegExp;
  /** For program names on platforms whose file systems ignore case (`RM` runs rm there). */
  folded: RegExp;
}

/** How a pattern matches a command: surely, possibly (a word is only known when it runs), or not. */
export type PatternMatch = 'match' | 'maybe' | 'none';

const RANK: Record<PatternMatch, number> = { none: 0, maybe: 1, match: 2 };
const better = (a: PatternMatch, b: PatternMatch): PatternMatch => (RANK[a] >= RANK[b] ? a : b);
const worse = (a: PatternMatch, b: PatternMatch): PatternMatch => (RANK[a] <= RANK[b] ? a : b);

/** Parses a command pattern, or says why it cannot be one. */
export function parseCommandPattern(pattern: string): CommandPattern | { problem: string } {
  const words: PatternWord[] = [];
  let source = '';
  let raw = '';
  let inWord = false;
  const endWord = () => {
    if (!inWord) return;
    words.push({
      star: raw === '*',
      exact: new RegExp(`^${source}$`, 's'),
      folded: new RegExp(`^${source}$`, 'si'),
    });
    source = '';
    raw = '';
    inWord = false;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (/\s/.test(c)) {
      endWord();
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') {
      const close = pattern.indexOf(c, i + 1);
      if (close < 0) return { problem: `The pattern has an unclosed ${c} quote.` };
      const inner = pattern.slice(i + 1, close);
      const text = c === '"' ? inner.replace(/\\([$`"\\])/g, '$1') : inner;
      source += escapeRegExp(text);
      raw += `${c}${inner}${c}`;
      i = close;
    } else if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return { problem: 'The pattern ends in a lone backslash.' };
      source += escapeRegExp(next);
      raw += `\\${next}`;
      i += 1;
    } else if (c === '*') {
      source += '.*';
      raw += c;
    } else if (c === '?') {
      source += '.';
      raw += c;
    } else {
      const operator = shellOperatorAt(pattern, i);
      if (operator !== null) {
        return {
          problem: `The pattern holds the shell operator \`${operator}\`: a rule matches one simple command (each part of a chain is checked on its own), so write one rule per command.`,
        };
      }
      source += escapeRegExp(c);
      raw += c;
    }
  }
  endWord();
  const last = words[words.length - 1];
  const anyRest = last?.star === true;
  if (anyRest) words.pop();
  if (words.length === 0 && !anyRest) return { problem: 'The pattern has no words.' };
  return { words, anyRest };
}

function shellOperatorAt(text: string, i: number): string | null {
  const c = text[i] as string;
  if (c === '$' && text[i + 1] === '(') return '$(';
  if (c === '&' && text[i + 1] === '&') return '&&';
  if (c === '|' && text[i + 1] === '|') return '||';
  return ';|&`<>()'.includes(c) ? c : null;
}

/**
 * How `pattern` matches one form of a command. The program name also matches by its base name
 * (`/bin/rm` by `rm`). A word only known when it runs surely matches only a standalone `*`; elsewhere it
 * may match, and one the shell splits may stand for no word or several.
 */
export function matchCommandPattern(
  pattern: CommandPattern,
  form: readonly ShellWord[],
  foldNames: boolean = process.platform === 'win32' || process.platform === 'darwin',
): PatternMatch {
  const { words, anyRest } = pattern;
  const memo = new Map<number, PatternMatch>();
  const at = (i: number, j: number): PatternMatch => {
    const key = i * (form.length + 1) + j;
    let found = memo.get(key);
    if (found === undefined) {
      found = step(i, j);
      memo.set(key, found);
    }
    return found;
  };
  const step = (i: number, j: number): PatternMatch => {
    if (i === words.length) {
      if (anyRest || j === form.length) return 'match';
      // Words left over match only if they may all turn out to be no words at all.
      return form.slice(j).every((w) => w.value === null && w.split) ? 'maybe' : 'none';
    }
    const word = form[j];
    if (word === undefined) return 'none';
    const patternWord = words[i] as PatternWord;
    if (word.value !== null) {
      return wordMatches(patternWord, word.value, j === 0, foldNames) ? at(i + 1, j + 1) : 'none';
    }
    if (!word.split) return patternWord.star ? at(i + 1, j + 1) : worse('maybe', at(i + 1, j + 1));
    let best: PatternMatch = 'none';
    for (let k = i; k <= words.length && best !== 'maybe'; k++)
      best = better(best, worse('maybe', at(k, j + 1)));
    return best;
  };
  return at(0, 0);
}

function wordMatches(word: PatternWord, value: string, isProgram: boolean, foldNames: boolean): boolean {
  if (word.exact.test(value)) return true;
  if (!isProgram) return false;
  const base = programBaseName(value);
  if (word.exact.test(base)) return true;
  if (!foldNames) return false;
  // Windows also finds `rm.exe` for `rm`; the names of programs are matched without the extension.
  const bare = base.replace(/\.(exe|cmd|bat|com)$/i, '');
  return word.folded.test(value) || word.folded.test(base) || word.folded.test(bare);
}
