import { formProgram } from './command-wrappers';
import { clip, PLAIN_NAME } from './hidden-evaluation';
import type { ShellWord } from './shell-words';

/**
 * Checks on what one form of a command does that no rule on its words can see: builtins that evaluate a
 * name or subscript given to them (`printf -v 'a[$(cmd)]'`), builtins that change what later names run
 * (`hash -p`, `enable`), and git options that make git run configured commands (`git -c alias.x=!cmd`).
 */

/** Variables that change which program a name runs or what a program runs on its own. */
const PROGRAM_CHANGING_VARIABLES = new Set([
  'PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'BASH_ENV',
  'ENV',
  'IFS',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  // Git runs these, or reads its configuration (where commands can be set) from them.
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_DIR',
  'GIT_EXEC_PATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  'GIT_TEMPLATE_DIR',
  'PAGER',
  'EDITOR',
  'VISUAL',
]);

/** Whether assigning `name` changes what commands run. */
export function changesPrograms(name: string): boolean {
  return PROGRAM_CHANGING_VARIABLES.has(name) || /^GIT_CONFIG_(KEY|VALUE)_/.test(name);
}

const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/** Why a form cannot be vouched for by its words, or null. */
export function formProblem(form: readonly ShellWord[]): string | null {
  const program = formProgram(form);
  const args = form.slice(1);
  const text = clip(form.map((w) => w.text).join(' '));
  const names = (kind: string) =>
    `\`${text}\` gives ${kind} a name that is not a plain variable name; a subscript in it runs code.`;
  switch (program) {
    case 'let':
      return `\`${text}\` evaluates arithmetic, where a name can hide code (\`a[$(cmd)]\`).`;
    case 'printf':
      return printfProblem(args) ? names('printf -v') : null;
    case 'read':
      return namesProblem(args, ['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u'], ['-a'])
        ? names('read')
        : null;
    case 'mapfile':
    case 'readarray':
      if (args.some((w) => w.value === null || /^-[^-]*C/.test(w.value))) {
        return `\`${text}\` runs a callback (\`-C\`) or takes words only known when it runs.`;
      }
      return namesProblem(args, ['-d', '-n', '-O', '-s', '-u', '-c'], []) ? names(program) : null;
    case 'unset':
      return namesProblem(args, [], []) ? names('unset') : null;
    case 'wait':
      // `wait $pid` is common; only `-p NAME` stores into a name.
      if (!args.some((w) => w.value !== null && /^-[^-]*p/.test(w.value))) return null;
      return namesProblem(args, ['-p'], ['-p'], true) ? names('wait -p') : null;
    case 'test':
    case '[':
      return testArgsProblem(args) ? names(program) : null;
    case 'hash':
      return args.some((w) => w.value === null || /^-[^-]*p/.test(w.value))
        ? `\`${text}\` sets the file a command name runs.`
        : null;
    case 'enable':
      return args.every((w) => w.value === '-a' || w.value === '-p' || w.value === '-s')
        ? null
        : `\`${text}\` turns shell builtins on or off (or loads new ones), which changes what names run.`;
    case 'coproc':
      return `\`${text}\` starts a coprocess, which cannot be read reliably.`;
    case 'git':
      return gitProblem(args, text);
  }
  if (program !== null && DECLARATIONS.has(program)) return declarationProblem(args, text);
  return null;
}

/** `printf -v NAME …`: the name is evaluated; an unknown first word may turn out to be `-v`. */
function printfProblem(args: readonly ShellWord[]): boolean {
  const first = args[0];
  if (first === undefined) return false;
  if (first.value === null) return true;
  if (first.value === '-v') return !PLAIN_NAME.test(args[1]?.value ?? '');
  if (first.value.startsWith('-v')) return !PLAIN_NAME.test(first.value.slice(2));
  return false;
}

/**
 * Whether a builtin that takes variable names (after options) gets one that is not plain. `valueOptions`
 * take the next word; `nameOptions` among them take a name. With `onlyOptions`, only those names count.
 */
function namesProblem(
  args: readonly ShellWord[],
  valueOptions: readonly string[],
  nameOptions: readonly string[],
  onlyOptions = false,
): boolean {
  let i = 0;
  const names: (string | null)[] = [];
  for (; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === null) return true;
    if (value === '--') {
      i += 1;
      break;
    }
    if (!value.startsWith('-') || value === '-') break;
    for (let at = 1; at < value.length; at++) {
      const option = `-${value[at]}`;
      if (!valueOptions.includes(option)) continue;
      const attached = value.slice(at + 1);
      const taken = attached !== '' ? attached : ((args[++i] as ShellWord | undefined)?.value ?? null);
      if (nameOptions.includes(option)) names.push(taken);
      break;
    }
  }
  if (!onlyOptions) names.push(...args.slice(i).map((w) => w.value));
  return names.some((name) => name === null || !PLAIN_NAME.test(name));
}

/** `test -v NAME`, `[ -R NAME ]`; two unknown words in a row may turn out to be `-v` and a name. */
function testArgsProblem(args: readonly ShellWord[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    const next = args[i + 1];
    if (value === '-v' || value === '-R') {
      if (!PLAIN_NAME.test(next?.value ?? '')) return true;
    } else if (value === null && next !== undefined && next.value === null) {
      return true;
    }
  }
  return false;
}

/** `declare -a/-A/-i/-n …` evaluate what they are given; a name with a subscript is evaluated too. */
function declarationProblem(args: readonly ShellWord[], text: string): string | null {
  for (const word of args) {
    if (word.assignedName !== undefined) {
      if (!PLAIN_NAME.test(word.assignedName)) return `\`${text}\` assigns to a subscript that may run code.`;
      continue;
    }
    const value = word.value;
    if (value === null) return `\`${text}\` declares a name only known when it runs, which may run code.`;
    if (/^[-+][a-zA-Z]*[aAin]/.test(value)) {
      return `\`${text}\` declares an array, integer or reference variable, whose values are evaluated.`;
    }
    if (value.startsWith('-') || value.startsWith('+')) continue;
    const name = value.replace(/\+?=[\s\S]*$/, '');
    if (!PLAIN_NAME.test(name)) return `\`${text}\` declares a name with a subscript, which may run code.`;
  }
  return null;
}

/** Git global options that take the next word. */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']);

/**
 * `git -c alias.x='!cmd'`, `--config-env`, `--exec-path=DIR`, `--git-dir=DIR`: git then runs commands
 * from configuration no rule can see. A word only known when it runs may be one of them.
 */
function gitProblem(args: readonly ShellWord[], text: string): string | null {
  for (let i = 0; i < args.length; i++) {
    const value = (args[i] as ShellWord).value;
    if (value === null) {
      return `\`${text}\` gives git a word only known when it runs, which may set configuration that runs commands.`;
    }
    if (!value.startsWith('-')) return null; // the subcommand
    const name = value.split('=')[0] as string;
    if (name === '-c' || name === '--config-env' || name === '--exec-path' || name === '--git-dir') {
      return `\`${text}\` sets git configuration (or where git finds it), which can make git run any command.`;
    }
    if (GIT_VALUE_OPTIONS.has(value)) i += 1;
  }
  return null;
}
