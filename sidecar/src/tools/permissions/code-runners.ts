import { formProgram, isWrapperName } from './command-wrappers';
import type { ShellWord } from './shell-words';

/**
 * What a command does with shell code given to it as text: `code` when the text is literal (to be read
 * like the command line itself), `unseen` when it runs commands that cannot be read before they run.
 */
export type CodeRun = { kind: 'code'; code: string } | { kind: 'unseen'; reason: string };

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish']);

/** Programs whose arguments are a command or shell code (besides the wrappers). */
const RUNNERS = new Set(['eval', 'su', 'runuser', 'script', 'flock', 'watch', 'parallel', 'trap', 'alias']);

/** Whether a program runs commands given to it, so a rule on its name alone allows any command. */
export function isCommandRunner(name: string): boolean {
  return RUNNERS.has(name) || SHELLS.has(name) || isWrapperName(name);
}

/** The shell code one form of a command runs as text (and what it runs unseen); empty when none. */
export function codeRunsBy(form: readonly ShellWord[]): CodeRun[] {
  const program = formProgram(form);
  if (program === null) return [];
  const args = form.slice(1);
  const run = codeRunBy(program, args);
  const runs = run === null ? [] : [run];
  if (SHELLS.has(program) && args.some((a) => a.value === '--rcfile' || a.value === '--init-file')) {
    runs.push({
      kind: 'unseen',
      reason: `\`${program}\` is given a startup file, whose commands cannot be read before they run.`,
    });
  }
  return runs;
}

function codeRunBy(program: string, args: readonly ShellWord[]): CodeRun | null {
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
  if (program === 'su' || program === 'runuser' || program === 'script') return optionCode(program, args);
  if (program === 'flock') return flockCode(args);
  if (program === 'watch') return watchCode(args);
  if (program === 'parallel') {
    return {
      kind: 'unseen',
      reason:
        '`parallel` runs a command template filled in from its input, which cannot be read before it runs.',
    };
  }
  return null;
}

/**
 * `su -c CODE`, `runuser -l user -c CODE`, `script -qc CODE`: the code runs in a shell. su and script
 * without it start a shell reading its input; runuser without it runs the command after `-u USER`.
 */
function optionCode(program: string, args: readonly ShellWord[]): CodeRun | null {
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === null) {
      return { kind: 'unseen', reason: `\`${program}\` is given words only known when it runs.` };
    }
    const reason = `\`${program} -c\` runs text that is only known when it runs.`;
    const attached = /^--(command|session-command)=([\s\S]*)$/.exec(value);
    if (attached) return literalCode([{ ...(args[i] as ShellWord), value: attached[2] as string }], reason);
    if (value === '--command' || value === '--session-command' || /^-[a-zA-Z]*c$/.test(value)) {
      const code = args[i + 1];
      return code === undefined ? null : literalCode([code], reason);
    }
  }
  if (program === 'runuser' && args.some((a) => a.value === '-u' || a.value?.startsWith('--user')))
    return null;
  return {
    kind: 'unseen',
    reason: `\`${program}\` starts a shell that reads commands from its input, which cannot be read before they run.`,
  };
}

/** `flock FILE -c CODE` runs CODE in a shell; `flock FILE cmd args` is read as a wrapper. */
function flockCode(args: readonly ShellWord[]): CodeRun | null {
  const at = args.findIndex((a) => a.value === '-c' || a.value === '--command');
  if (at < 0) return null;
  const code = args[at + 1];
  return code === undefined ? null : literalCode([code], '`flock -c` runs text only known when it runs.');
}

/** `watch [options] cmd args…` joins its words and runs them with `sh -c`, again and again. */
function watchCode(args: readonly ShellWord[]): CodeRun | null {
  let i = 0;
  while (i < args.length) {
    const value = (args[i] as ShellWord).value;
    if (value === null || !value.startsWith('-')) break;
    i += /^(-n|--interval|-q|--equexit)$/.test(value) ? 2 : 1;
  }
  const words = args.slice(i);
  if (words.length === 0) return null;
  return literalCode(words, '`watch` runs text only known when it runs.');
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
    if (value === '--rcfile' || value === '--init-file') i += 1; // its file, not a script to run
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

/** `env -S 'CMD ARGS'`, `-S'CMD'`, `-iS CMD`, `--split-string=CMD` split their text into a command. */
function envSplitString(args: readonly ShellWord[]): CodeRun | null {
  const reason = '`env -S` runs text only known when it runs.';
  for (let at = 0; at < args.length; at++) {
    const option = args[at] as ShellWord;
    const value = option.value;
    if (value === null) return null; // the command (unknown), unvouched by its caller
    if (value === '--') return null;
    if (value === '--split-string') return literalCode(args.slice(at + 1), reason);
    if (value.startsWith('--split-string=')) {
      const code = value.slice('--split-string='.length);
      return literalCode([{ ...option, value: code }, ...args.slice(at + 1)], reason);
    }
    if (value.startsWith('--')) {
      if (value === '--unset' || value === '--chdir') at += 1;
      continue;
    }
    if (!value.startsWith('-') || value === '-') return null; // NAME=VALUE words, then the command
    // A cluster of short options: `S` takes the rest of the word, or the next word.
    const s = value.indexOf('S');
    const valueTaker = value.slice(1).search(/[uCS]/);
    if (s < 0 || (valueTaker >= 0 && valueTaker + 1 < s)) {
      if (valueTaker >= 0 && valueTaker + 2 === value.length) at += 1; // `-u NAME`, `-C DIR`
      continue;
    }
    const attached = value.slice(s + 1);
    if (attached === '') return literalCode(args.slice(at + 1), reason);
    return literalCode([{ ...option, value: attached }, ...args.slice(at + 1)], reason);
  }
  return null;
}
