import type { Node } from 'web-tree-sitter';

/**
 * One word of a command as the shell will see it: `value` is its text with quotes and escapes removed, or
 * null when it is only known when the command runs (a variable, a substitution, a brace expansion).
 */
export interface ShellWord {
  value: string | null;
  /** An unknown word the shell splits on spaces: it may become no word or several. */
  split: boolean;
  /** The unquoted text holds glob characters (`*.txt`): fine as an argument, unknown as a program name. */
  globbed: boolean;
  /** The word as written. */
  text: string;
  /** For `NAME=VALUE` given to a declaration (`export A=1`): the name as written (`A`, `a[i]`). */
  assignedName?: string;
}

export function literalWord(value: string): ShellWord {
  return { value, split: false, globbed: false, text: value };
}

/** Words that come from outside the command (xargs' input): any number of them, none known. */
export function unknownWords(text: string): ShellWord {
  return { value: null, split: true, globbed: false, text };
}

/** Brace expansion (`{rm,-rf,x}`, `r{m,}`, `{1..3}`) turns one written word into other words. */
const BRACE_EXPANSION = /\{[^{}]*(,|\.\.)[^{}]*\}/;
const GLOB_CHARS = /[*?[]/;

/** The word a node of the command line stands for (an argument, a program name, a redirect target). */
export function shellWord(node: Node): ShellWord {
  const text = node.text;
  const parts = node.type === 'concatenation' ? node.children : [node];
  let value = '';
  let known = true;
  let split = false;
  // The unquoted text with escapes and quoted parts blanked out: where expansions and globs can happen.
  let shape = '';
  let unquoted = '';
  const flushUnquoted = () => {
    value += unescapeUnquoted(unquoted);
    shape += unquoted.replace(/\\[\s\S]/g, '__');
    unquoted = '';
  };
  for (const part of parts) {
    if (part.type === 'word' || part.type === 'number' || part.type === 'variable_name') {
      unquoted += part.text;
      continue;
    }
    flushUnquoted();
    const quoted = quotedValue(part);
    if (quoted !== undefined) {
      if (quoted === null) known = false;
      else value += quoted;
      shape += '_';
    } else {
      // A variable, a substitution, an arithmetic expansion or a construct this reader does not know.
      known = false;
      split ||= !KNOWN_SINGLE.has(part.type);
      shape += '_';
    }
  }
  flushUnquoted();
  if (BRACE_EXPANSION.test(shape)) return { value: null, split: true, globbed: false, text };
  return { value: known ? value : null, split: !known && split, globbed: GLOB_CHARS.test(shape), text };
}

/** Unknown parts that always stay one word; every other unquoted one (`$X`, `$(…)`) is split by the shell. */
const KNOWN_SINGLE = new Set(['process_substitution', 'arithmetic_expansion']);

/**
 * The value of a quoted part: a string for literal quoting, null for a double-quoted string holding an
 * expansion, undefined when `part` is not quoting at all.
 */
function quotedValue(part: Node): string | null | undefined {
  switch (part.type) {
    case 'raw_string':
      return part.text.slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(part.text.slice(2, -1));
    case 'string': {
      const dynamic = part.namedChildren.some((child) => child.type !== 'string_content');
      if (dynamic) return null;
      // `$"…"` (a translated string) is the same text as `"…"` when no translation is installed.
      const inner = part.text.startsWith('$') ? part.text.slice(2, -1) : part.text.slice(1, -1);
      return inner.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
    }
    default:
      return undefined;
  }
}

export function unescapeUnquoted(raw: string): string {
  return raw.replace(/\\([\s\S])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'`'s escapes, as bash decodes them (so `$'\x72m'` is read as `rm`). */
export function decodeAnsiC(inner: string): string {
  return inner.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c[\s\S]|[\s\S])/g,
    (whole, esc: string) => {
      const kind = esc[0] ?? '';
      if (kind === 'x' || kind === 'u' || kind === 'U') {
        return String.fromCodePoint(Math.min(Number.parseInt(esc.slice(1), 16), 0x10ffff));
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
      if (kind === 'c' && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return SIMPLE_ESCAPES[esc] ?? whole;
    },
  );
}

/**
 * The literal text a word carries once quotes and escapes are removed, with every expansion left out
 * (`'a['"\\$("'x)]'` → `a[$(x)]`): what a variable may hold if the word is assigned or stored.
 */
export function literalText(node: Node): string {
  switch (node.type) {
    case 'word':
    case 'number':
      return unescapeUnquoted(node.text);
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(node.text.slice(2, -1));
    case 'string_content':
      return node.text.replace(/\\([$`"\\\n])/g, '$1');
    case 'string':
    case 'concatenation':
      return node.children.map(literalText).join('');
    default:
      return '';
  }
}
