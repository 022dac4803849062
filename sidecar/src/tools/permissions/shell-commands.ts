import type { Node } from 'web-tree-sitter';
import { codeRunsBy } from './code-runners';
import {
  changesPrivileges,
  commandForms,
  findExecCommands,
  formProgram,
  wrapperAssignments,
} from './command-wrappers';
import { clip, hiddenEvaluation } from './hidden-evaluation';
import { joinLineContinuations } from './line-continuations';
import { changesPrograms, formProblem } from './program-checks';
import { LINK_MAKERS, type RedirectTarget, unvouchedRedirects } from './redirect-targets';
import type { BashParser } from './shell-parser';
import { literalWord, type ShellWord, shellWord } from './shell-words';

/** One simple command a command line runs, with every form rules are checked against. */
export interface SimpleCommand {
  /** The command as written. */
  text: string;
  /** The command itself, then what each wrapper in it runs (`sudo rm x` → `sudo rm x`, `rm x`). */
  forms: ShellWord[][];
  /**
   * It only runs shell code that was read and counted as commands of its own (`bash -c 'ls'`, `eval 'ls'`),
   * so it needs no allow rule itself; deny and ask rules still apply to it.
   */
  codeOnly: boolean;
  /**
   * How many of `forms`, from the outermost, an allow rule may match: up to the first wrapper that
   * changes privileges or the environment (`sudo`, `env A=1`), so `npm test *` does not allow
   * `sudo npm test`. All of them when there is no such wrapper.
   */
  allowForms: number;
}

/** A part of a command line that cannot be vouched for by reading it (it asks in every mode but auto). */
export interface UnvouchedPart {
  text: string;
  /** One sentence saying why. */
  reason: string;
}

export interface ShellAnalysis {
  commands: SimpleCommand[];
  unvouched: UnvouchedPart[];
}

/** How deep shell code inside shell code (`bash -c "eval 'sh -c …'"`) is read before it asks instead. */
const MAX_CODE_DEPTH = 8;

const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);

/**
 * Reads a bash command line: every simple command it runs (also inside substitutions, bodies, functions,
 * and literal code given to eval, `bash -c` and the like), and the parts that cannot be vouched for. Never
 * stops early: a long command is read to its end.
 */
export async function analyseShellCommand(
  parser: BashParser,
  command: string,
  projectRoot: string | null,
): Promise<ShellAnalysis> {
  const reader = new ShellReader(parser);
  reader.readCode(command, 0, command);
  // Read as bash joins its line continuations too: rules are checked on both readings.
  const joined = joinLineContinuations(parser, command);
  if (joined.text !== command) reader.readCode(joined.text, 0, joined.text);
  const unvouched = [...reader.unvouched];
  if (joined.problem !== null) unvouched.push({ text: command, reason: joined.problem });
  const makesLinks = reader.commands.some((c) =>
    c.forms.some((form) => LINK_MAKERS.has(formProgram(form) ?? '')),
  );
  const context = { changesDirectory: reader.changesDirectory, makesLinks };
  unvouched.push(...(await unvouchedRedirects(reader.redirects, projectRoot, context)));
  return { commands: uniqueCommands(reader.commands), unvouched };
}

/** The commands read twice (as written and with lines joined) once each. */
function uniqueCommands(commands: readonly SimpleCommand[]): SimpleCommand[] {
  const seen = new Set<string>();
  return commands.filter((command) => {
    const key = JSON.stringify([
      command.codeOnly,
      command.forms.map((f) => f.map((w) => [w.value, w.split])),
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Analyses a command given as words (Exec's program and arguments), with no shell in between. */
export function analyseWords(parser: BashParser, words: readonly string[]): ShellAnalysis {
  const reader = new ShellReader(parser);
  reader.addCommand(words.map(literalWord), words.join(' '), 0);
  return { commands: reader.commands, unvouched: reader.unvouched };
}

class ShellReader {
  readonly commands: SimpleCommand[] = [];
  readonly unvouched: UnvouchedPart[] = [];
  readonly redirects: RedirectTarget[] = [];
  changesDirectory = false;

  constructor(private readonly parser: BashParser) {}

  readCode(code: string, depth: number, shownAs: string): void {
    if (depth > MAX_CODE_DEPTH) {
      this.unvouch(shownAs, 'It nests shell code in shell code too deeply to be read.');
      return;
    }
    const read = this.parser.withTree(code, (root) => {
      this.walk(root, depth);
      return true;
    });
    if (read === null) this.unvouch(shownAs, 'It could not be parsed as a shell command.');
  }

  /** Finds every command and redirect under `node`; anything unknown is searched through its children. */
  private walk(node: Node, depth: number): void {
    if (node.isMissing) {
      this.unvouch(
        node.type,
        `The command is incomplete (a \`${node.type}\` is missing), so it cannot be read.`,
      );
    } else if (node.isError) {
      this.unvouch(node.text, `\`${clip(node.text)}\` could not be parsed, so what it runs cannot be known.`);
    }
    const hidden = hiddenEvaluation(node);
    if (hidden !== null) this.unvouch(node.text, hidden);
    switch (node.type) {
      case 'command':
        this.readCommand(node, depth);
        return;
      case 'declaration_command':
      case 'unset_command':
        this.readDeclaration(node, depth);
        return;
      case 'variable_assignment':
        this.readAssignment(node, depth);
        return;
      case 'file_redirect':
        this.readFileRedirect(node);
        break;
    }
    for (const child of node.children) this.walk(child, depth);
  }

  private readCommand(node: Node, depth: number): void {
    const words: ShellWord[] = [];
    for (const child of node.children) {
      if (child.type === 'variable_assignment') {
        this.readAssignment(child, depth);
        continue;
      }
      if (child.type === 'command_name') words.push(shellWord(child.firstNamedChild ?? child));
      else if (child.isNamed && !child.type.endsWith('_redirect')) words.push(shellWord(child));
      // Substitutions inside words run too; redirects are read on the way down.
      this.walk(child, depth);
    }
    if (words.length > 0) this.addCommand(words, node.text, depth);
  }

  /** `export A=$(…)`, `local b`, `declare -x c`, `unset d`: a command named by its keyword; values are read. */
  private readDeclaration(node: Node, depth: number): void {
    const keyword = node.firstChild?.type ?? 'declare';
    const words: ShellWord[] = [literalWord(keyword)];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') {
        this.checkAssignedName(child);
        words.push(assignmentWord(child));
      } else {
        words.push(shellWord(child));
      }
      this.walk(child, depth);
    }
    this.addCommand(words, node.text, depth);
  }

  private readAssignment(node: Node, depth: number): void {
    this.checkAssignedName(node);
    for (const child of node.children) this.walk(child, depth);
  }

  private checkAssignedName(node: Node): void {
    this.checkName(node.childForFieldName('name')?.text ?? '', node.text);
  }

  private checkName(name: string, text: string): void {
    if (changesPrograms(name)) {
      this.unvouch(text, `\`${clip(text)}\` changes ${name}, which changes what commands run.`);
    }
  }

  private readFileRedirect(node: Node): void {
    const operator = node.children.find((c) => !c.isNamed)?.type ?? '';
    if (!WRITING_OPERATORS.has(operator)) return;
    const destination = node.childForFieldName('destination');
    if (destination === null) return; // a parse error, unvouched where it was found
    const target = shellWord(destination);
    // `>&2`, `2>&1`, `>&-`: a copy of a file descriptor, not a file.
    if (operator === '>&' && target.value !== null && /^(\d+-?|-)$/.test(target.value)) return;
    this.redirects.push({ target, text: node.text });
  }

  /** Adds one simple command given as words, and whatever its forms run in turn. */
  addCommand(words: readonly ShellWord[], text: string, depth: number): void {
    const forms = commandForms(words).map(withUnknownGlobName);
    let codeOnly = false;
    let unknownNameSeen = false;
    let allowForms = forms.length;
    forms.forEach((form, index) => {
      const program = formProgram(form);
      if (program === null && !unknownNameSeen) {
        unknownNameSeen = true;
        this.unvouch(text, `\`${clip(text)}\` runs a program whose name is only known when it runs.`);
      }
      if (program !== null && DIRECTORY_CHANGERS.has(program)) this.changesDirectory = true;
      if (changesPrivileges(form) && allowForms === forms.length) allowForms = index + 1;
      // Code run under a wrapper that changes privileges needs an allow of its own (`sudo bash -c …`).
      const privileged = allowForms < forms.length || changesPrivileges(form);
      for (const name of wrapperAssignments(form)) this.checkName(name, text);
      const problem = formProblem(form);
      if (problem !== null) this.unvouch(text, problem);
      for (const run of codeRunsBy(form)) {
        if (run.kind === 'unseen') this.unvouch(text, run.reason);
        else {
          codeOnly ||= !privileged;
          this.readCode(run.code, depth + 1, text);
        }
      }
      for (const inner of findExecCommands(form)) {
        this.addCommand(inner, inner.map((w) => w.text).join(' '), depth);
      }
    });
    this.commands.push({ text, forms, codeOnly, allowForms });
  }

  private unvouch(text: string, reason: string): void {
    this.unvouched.push({ text, reason });
  }
}

/** Redirect operators that write to (or open for writing) their target. */
const WRITING_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);

/** `NAME=VALUE` as one word of a declaration (`export A=1`). */
function assignmentWord(node: Node): ShellWord {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const value = valueNode === null ? literalWord('') : shellWord(valueNode);
  return {
    value: value.value === null ? null : `${name}=${value.value}`,
    split: false,
    globbed: false,
    text: node.text,
    assignedName: name,
  };
}

/** A program name with glob characters (`/bin/r?`) is only known once the shell expands it. */
function withUnknownGlobName(form: ShellWord[]): ShellWord[] {
  const first = form[0];
  if (first === undefined || !first.globbed) return form;
  return [{ ...first, value: null }, ...form.slice(1)];
}
