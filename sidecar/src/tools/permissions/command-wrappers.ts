import { type ShellWord, unknownWords } from './shell-words';

/** How to find the command a wrapper runs: its options that take a value, and what else comes before it. */
interface WrapperSpec {
  /** Options whose value is the next word when not attached (`-u root`, `--user root`). */
  valueOptions: readonly string[];
  /** Skips words after the options that are not the command yet (env's NAME=VALUE, timeout's duration). */
  skipLeading?: (word: ShellWord, index: number) => boolean;
  /** The wrapped command gets more arguments from elsewhere (xargs' input). */
  appendsUnknown?: boolean;
  /** Options that give shell code instead of a command (`flock F -c CODE`): then it wraps no command. */
  codeOptions?: readonly string[];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const isAssignment = (word: ShellWord) => word.value !== null && ASSIGNMENT.test(word.value);
/** The first word after the options is not the command (timeout's duration, taskset's mask, flock's file). */
const firstIsArgument = (_word: ShellWord, index: number) => index === 0;

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valueOptions: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group'],
    skipLeading: isAssignment,
  },
  doas: { valueOptions: ['-u', '-C'], skipLeading: isAssignment },
  pkexec: { valueOptions: ['--user'] },
  env: {
    valueOptions: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
    skipLeading: isAssignment,
  },
  nice: { valueOptions: ['-n', '--adjustment'] },
  nohup: { valueOptions: [] },
  setsid: { valueOptions: [] },
  ionice: {
    valueOptions: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'],
  },
  taskset: { valueOptions: [], skipLeading: firstIsArgument },
  flock: {
    valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'],
    skipLeading: firstIsArgument,
    codeOptions: ['-c', '--command'],
  },
  chrt: {
    valueOptions: ['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline'],
    skipLeading: firstIsArgument,
  },
  unshare: {
    valueOptions: [
      '-S',
      '--setuid',
      '-G',
      '--setgid',
      '-R',
      '--root',
      '-w',
      '--wd',
      '--map-user',
      '--map-group',
      '--map-users',
      '--map-groups',
      '--propagation',
      '--setgroups',
      '--monotonic',
      '--boottime',
    ],
  },
  nsenter: { valueOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid'] },
  chroot: { valueOptions: ['--userspec', '--groups'], skipLeading: firstIsArgument },
  runuser: {
    valueOptions: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-s', '--shell', '-w'],
    codeOptions: ['-c', '--command'],
  },
  'systemd-run': {
    valueOptions: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '-E',
      '--setenv',
      '-M',
      '--machine',
      '-H',
      '--host',
      '--description',
      '--slice',
      '--uid',
      '--gid',
      '--nice',
      '--working-directory',
      '--service-type',
      '--on-calendar',
      '--on-active',
      '--on-boot',
      '--on-startup',
      '--on-unit-active',
      '--on-unit-inactive',
    ],
  },
  strace: {
    valueOptions: [
      '-e',
      '-o',
      '-p',
      '-s',
      '-u',
      '-E',
      '-a',
      '-b',
      '-I',
      '-O',
      '-S',
      '-X',
      '-P',
      '-U',
      '--output',
    ],
  },
  ltrace: {
    valueOptions: ['-e', '-o', '-p', '-s', '-u', '-n', '-a', '-A', '-D', '-F', '-l', '-w', '-x', '--output'],
  },
  firejail: { valueOptions: [] },
  busybox: { valueOptions: [] },
  time: { valueOptions: ['-f', '-o', '--format', '--output'] },
  timeout: {
    valueOptions: ['-s', '--signal', '-k', '--kill-after'],
    skipLeading: firstIsArgument,
  },
  command: { valueOptions: [] },
  builtin: { valueOptions: [] },
  exec: { valueOptions: ['-a'] },
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

/**
 * Wrappers that change who runs the command, or its environment or root: an allow rule on the command
 * they run does not allow them (`npm test *` does not allow `sudo npm test`). env counts only when it
 * assigns variables.
 */
const PRIVILEGED = new Set([
  'sudo',
  'doas',
  'pkexec',
  'su',
  'runuser',
  'chroot',
  'nsenter',
  'unshare',
  'systemd-run',
]);

/** Whether a form's wrapper changes privileges or the environment of what it runs. */
export function changesPrivileges(form: readonly ShellWord[]): boolean {
  const name = formProgram(form);
  if (name === null) return false;
  if (PRIVILEGED.has(name)) return true;
  return name === 'env' && wrapperAssignments(form).length > 0;
}

/** Whether `name` is a wrapper (a program that runs another command given to it). */
export function isWrapperName(name: string): boolean {
  return Object.hasOwn(WRAPPERS, name) || PRIVILEGED.has(name);
}

/** The names a wrapper assigns for the command it runs (`env A=1 B=2 cmd`, `sudo PATH=x cmd` → A, B / PATH). */
export function wrapperAssignments(form: readonly ShellWord[]): string[] {
  const name = formProgram(form);
  const spec = name === null ? undefined : WRAPPERS[name];
  if (spec?.skipLeading !== isAssignment) return [];
  let i = afterOptions(form, spec);
  const names: string[] = [];
  while (i < form.length && isAssignment(form[i] as ShellWord)) {
    names.push(((form[i] as ShellWord).value as string).split('=')[0] as string);
    i += 1;
  }
  return names;
}

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
    const inner =
      name === 'coproc' ? coprocCommand(form) : spec === undefined ? null : wrappedCommand(form, spec);
    if (inner === null || inner.length === 0) break;
    form = spec?.appendsUnknown ? [...inner, unknownWords('(the input xargs reads)')] : inner;
  }
  return forms;
}

/** The words of the command a wrapper runs, or null when it runs none. */
function wrappedCommand(form: readonly ShellWord[], spec: WrapperSpec): ShellWord[] | null {
  let i = afterOptions(form, spec);
  let leading = 0;
  while (i < form.length && spec.skipLeading?.(form[i] as ShellWord, leading)) {
    i += 1;
    leading += 1;
  }
  const first = form[i]?.value;
  if (first != null && spec.codeOptions?.includes(first.split('=')[0] as string)) return null;
  return i < form.length ? form.slice(i) : null;
}

/** Where a wrapper's options end: the index of the first word that is not one (or one's value). */
function afterOptions(form: readonly ShellWord[], spec: WrapperSpec): number {
  let i = 1;
  while (i < form.length) {
    const word = form[i] as ShellWord;
    // An unknown word could be an option or the command: the command is taken to start there, so its
    // name is unknown and the caller treats it as unvouched.
    if (word.value === null) break;
    const value = word.value;
    if (value === '--') return i + 1;
    if (!value.startsWith('-') || value === '-') break;
    if (spec.codeOptions?.includes(value.split('=')[0] as string)) break;
    i += optionTakesNextWord(value, spec.valueOptions) ? 2 : 1;
  }
  return i;
}

/**
 * `coproc cmd args`, `coproc { cmd; }`, `coproc NAME { cmd; }`: tree-sitter reads the braces as words
 * (`coproc f { rm x` then `}`), so the command inside is taken from after them.
 */
function coprocCommand(form: readonly ShellWord[]): ShellWord[] | null {
  let i = 1;
  if (form[i + 1]?.value === '{') i += 1;
  if (form[i]?.value === '{') i += 1;
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
