import { type ShellWord, unknownWords } from './shell-words';

/** How to find the command a wrapper runs: its options that take a value, and what else comes before it. */
interface WrapperSpec {
  /** Options whose value is the next word when not attached (`-u root`, `--user root`). */
  valueOptions: readonly string[];
  /** Skips words after the options that are not the command yet (env's NAME=VALUE, timeout's duration). */
  skipLeading?: (word: ShellWord, index: number) => boolean;
  /** The wrapped command gets more arguments from elsewhere (xargs' input). */
  appendsUnknown?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valueOptions: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group'],
  },
  doas: { valueOptions: ['-u', '-C'] },
  env: {
    valueOptions: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
    skipLeading: (word) => word.value !== null && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value),
  },
  nice: { valueOptions: ['-n', '--adjustment'] },
  nohup: { valueOptions: [] },
  time: { valueOptions: ['-f', '-o', '--format', '--output'] },
  timeout: {
    valueOptions: ['-s', '--signal', '-k', '--kill-after'],
    skipLeading: (_word, index) => index === 0,
  },
  command: { valueOptions: [] },
  builtin: { valueOptions: [] },
  exec: { valueOptions: ['-a'] },
  coproc: { valueOptions: [] },
  xargs: {
    valueOptions: [
      '-I',
      '-L',
      '-n',
      '-P',
      '-s',
      '-d',
      '-E',
      '-a',
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-lines',
      '--max-chars',
      '--replace',
      '--eof',
    ],
    appendsUnknown: true,
  },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
};

/** The last path part of a program name (`/bin/rm` → `rm`), on either kind of separator. */
export function programBaseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] || name;
}

/** The program a form runs, by its base name; null when not known before it runs. */
export function formProgram(form: readonly ShellWord[]): string | null {
  const first = form[0];
  return first?.value == null ? null : programBaseName(first.value);
}

/**
 * The forms one command takes: the command as written, then each command a wrapper in it runs
 * (`sudo env FOO=1 rm x` → itself, `env FOO=1 rm x`, `rm x`). Rules are checked against every form.
 */
export function commandForms(words: readonly ShellWord[]): ShellWord[][] {
  const forms: ShellWord[][] = [];
  let form: ShellWord[] = [...words];
  while (form.length > 0) {
    forms.push(form);
    const name = formProgram(form);
    const spec = name === null ? undefined : WRAPPERS[name];
    if (spec === undefined) break;
    const inner = wrappedCommand(form, spec);
    if (inner === null || inner.length === 0) break;
    form = spec.appendsUnknown ? [...inner, unknownWords('(the input xargs reads)')] : inner;
  }
  return forms;
}

/** The words of the command a wrapper runs, or null when it runs none. */
function wrappedCommand(form: readonly ShellWord[], spec: WrapperSpec): ShellWord[] | null {
  let i = 1;
  while (i < form.length) {
    const word = form[i] as ShellWord;
    // An unknown word could be an option or the command: the command is taken to start there, so its
    // name is unknown and the caller treats it as unvouched.
    if (word.value === null) break;
    const value = word.value;
    if (value === '--') {
      i += 1;
      break;
    }
    if (!value.startsWith('-') || value === '-') break;
    i += optionTakesNextWord(value, spec.valueOptions) ? 2 : 1;
  }
  let leading = 0;
  while (i < form.length && spec.skipLeading?.(form[i] as ShellWord, leading)) {
    i += 1;
    leading += 1;
  }
  return i < form.length ? form.slice(i) : null;
}

function optionTakesNextWord(option: string, valueOptions: readonly string[]): boolean {
  if (option.startsWith('--')) return !option.includes('=') && valueOptions.includes(option);
  // A cluster of short options (`-Eu root`): the first that takes a value takes the rest of the word,
  // or the next word when it ends the cluster.
  for (let at = 1; at < option.length; at++) {
    if (valueOptions.includes(`-${option[at]}`)) return at === option.length - 1;
  }
  return false;
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The commands `find … -exec CMD … ;` runs (one per -exec), or none for other commands. */
export function findExecCommands(form: readonly ShellWord[]): ShellWord[][] {
  if (formProgram(form) !== 'find') return [];
  const found: ShellWord[][] = [];
  let i = 1;
  while (i < form.length) {
    const value = (form[i] as ShellWord).value;
    i += 1;
    if (value === null || !FIND_EXEC.has(value)) continue;
    const start = i;
    while (i < form.length && !isFindTerminator(form[i] as ShellWord)) i += 1;
    if (i > start) found.push(form.slice(start, i));
  }
  return found;
}

function isFindTerminator(word: ShellWord): boolean {
  return word.value === ';' || word.value === '+';
}
