import { formProgram } from './command-wrappers';
import type { ShellWord } from './shell-words';

/**
 * What a command does with shell code given to it as text: `code` when the text is literal (to be read
 * like the command line itself), `unseen` when it runs commands that cannot be read before they run.
 */
export type CodeRun = { kind: 'code'; code: string } | { kind: 'unseen'; reason: string };

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish']);

/** The shell code one form of a command runs as text, or null when it runs none. */
export function codeRunBy(form: readonly ShellWord[]): CodeRun | null {
  const program = formProgram(form);
  if (program === null) return null;
  const args = form.slice(1);
  if (program === 'eval') return literalCode(args, '`eval` runs text that is only known when it runs.');
  if (program === 'source' || program === '.') {
    const file = args[0]?.text ?? 'a file';
    return {
      kind: 'unseen',
      reason: `\`${program} ${file}\` runs the commands in ${file}, which cannot be read before they run.`,
    };
  }
  if (SHELLS.has(program)) return shellCode(program, args);
  if (program === 'trap') return trapCode(args);
  if (program === 'alias') return aliasCode(args);
  if (program === 'env') return envSplitString(args);
  return null;
}

function literalCode(words: readonly ShellWord[], unknownReason: string): CodeRun {
  if (words.some((w) => w.value === null)) return { kind: 'unseen', reason: unknownReason };
  return { kind: 'code', code: words.map((w) => w.value).join(' ') };
}

/** `bash -c CODE`, `sh -lc CODE`…; a shell without -c runs a script file, or reads its input. */
function shellCode(program: string, args: readonly ShellWord[]): CodeRun | null {
  let withC = false;
  let i = 0;
  for (; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === null) {
      if (withC) break; // the code itself, checked below
      return { kind: 'unseen', reason: `\`${program}\` is given options only known when it runs.` };
    }
    if (value === '--' || value === '-') {
      i += 1;
      break;
    }
    if (value === '--version' || value === '--help') return null;
    if (value.startsWith('--')) continue;
    if (!value.startsWith('-') && !value.startsWith('+')) break;
    if (value.startsWith('-') && value.slice(1).includes('c')) withC = true;
    // `-o pipefail`, `+O extglob`: the option's name is the next word.
    if (/^[-+][a-zA-Z]*[oO]$/.test(value)) i += 1;
  }
  const first = args[i];
  if (withC) {
    if (first === undefined) return null;
    return literalCode([first], `\`${program} -c\` runs text that is only known when it runs.`);
  }
  if (first === undefined) {
    return {
      kind: 'unseen',
      reason: `\`${program}\` reads the commands to run from its input, which cannot be read before they run.`,
    };
  }
  return null;
}

/** `trap 'CODE' SIGNAL…` runs CODE later, when the signal comes. */
function trapCode(args: readonly ShellWord[]): CodeRun | null {
  const first = args[0];
  if (first === undefined || args.length < 2) return null;
  if (first.value === '-' || first.value === '' || first.value?.startsWith('-')) return null;
  return literalCode([first], '`trap` is given commands only known when it runs.');
}

/** `alias ls='rm -rf x'`: the alias's text runs wherever its name is used later on. */
function aliasCode(args: readonly ShellWord[]): CodeRun | null {
  const bodies: ShellWord[] = [];
  for (const arg of args) {
    if (arg.value === null)
      return { kind: 'unseen', reason: '`alias` defines text only known when it runs.' };
    const eq = arg.value.indexOf('=');
    if (eq > 0) bodies.push({ ...arg, value: arg.value.slice(eq + 1) });
  }
  if (bodies.length === 0) return null;
  return { kind: 'code', code: bodies.map((b) => b.value).join('\n') };
}

/** `env -S 'CMD ARGS'` splits its text into a command. */
function envSplitString(args: readonly ShellWord[]): CodeRun | null {
  const at = args.findIndex(
    (a) => a.value === '-S' || a.value === '--split-string' || !!a.value?.startsWith('--split-string='),
  );
  if (at < 0) return null;
  const option = args[at] as ShellWord;
  if (option.value?.startsWith('--split-string=')) {
    return literalCode(
      [{ ...option, value: option.value.slice('--split-string='.length) }, ...args.slice(at + 1)],
      '`env -S` runs text only known when it runs.',
    );
  }
  return literalCode(args.slice(at + 1), '`env -S` runs text only known when it runs.');
}
