import { programBaseName } from './command-wrappers';
import type { ShellWord } from './shell-words';

/** Words of a suggested command pattern before ` *`: the program and at most two more. */
const MAX_PREFIX_WORDS = 3;

/** An argument that names a file, a value or an option, not a subcommand: the suggestion stops there. */
const LOOKS_VARIABLE = /^-|[/.=:@$0-9*?[\]{}'"\\\s]/;

/**
 * The command pattern "always allow" proposes for one command: its program and the subcommand words that
 * follow, up to the first argument that looks variable, then ` *` (`npm run test -- --grep x` →
 * `npm run test *`, `rm -rf build` → `rm *`). Null when the program is only known when it runs.
 */
export function suggestCommandPattern(words: readonly ShellWord[]): string | null {
  const program = words[0]?.value;
  if (program == null || program === '') return null;
  const prefix = [programBaseName(program)];
  for (const word of words.slice(1, MAX_PREFIX_WORDS)) {
    if (word.value === null || word.value === '' || LOOKS_VARIABLE.test(word.value)) break;
    prefix.push(word.value);
  }
  return `${prefix.map(quoteForPattern).join(' ')} *`;
}

/** A program's base name may hold what patterns read as glob or quoting characters. */
function quoteForPattern(word: string): string {
  return /^[A-Za-z0-9_.+,%^@:=/-]+$/.test(word) ? word : `'${word.replace(/'/g, '')}'`;
}

/**
 * The path pattern "always allow" proposes for a file tool's call: the folder of the file (`src/**`), the
 * file itself when it lies at the top of the project, the searched folder and all below for Glob and Grep.
 * Null when the path is outside the project (no path pattern could match it).
 */
export function suggestPathPattern(relative: string | null, isFolder: boolean): string | null {
  if (relative === null) return null;
  if (isFolder) return relative === '.' ? '**' : `${relative}/**`;
  const folder = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '.';
  return folder === '.' ? relative : `${folder}/**`;
}
