import { MCP_ENV_NAME } from '../../protocol/mcp';

/**
 * Placeholders in imported configs: `${env:VAR}` (VS Code, Cursor), `${VAR}` and `${VAR:-default}` (Claude
 * Code), `${workspaceFolder}`, `${userHome}`, `${input:id}` (VS Code) and any other `${…}`. The rule is
 * "mapped or asked for, never guessed": only a value that is exactly one environment reference in the file's
 * own syntax maps to `{"env":"VAR"}`; every other placeholder becomes a question for the user.
 */

/** How a file format writes a reference to an environment variable. */
export type EnvRefSyntax = 'env-prefix' | 'bare' | 'none';

const PLACEHOLDER = /\$\{([^{}]+)\}/g;
const WITH_DEFAULT = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/s;

export interface PlaceholderUse {
  /** The question id: the text between `${` and `}`, without a `:-default`. */
  id: string;
  /** The default the file gives (`${VAR:-default}`), if any. */
  default: string | null;
}

function placeholderUse(inner: string): PlaceholderUse {
  const m = WITH_DEFAULT.exec(inner);
  return m === null ? { id: inner, default: null } : { id: m[1]!, default: m[2]! };
}

/** Every placeholder in a text, in order. */
export function findPlaceholders(text: string): PlaceholderUse[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => placeholderUse(m[1]!));
}

/** The single placeholder that is the whole of `text`, if it is one. */
export function wholePlaceholder(text: string): PlaceholderUse | null {
  const m = /^\$\{([^{}]+)\}$/.exec(text);
  return m === null ? null : placeholderUse(m[1]!);
}

/** The variable a value refers to when the whole value is one environment reference in the file's syntax. */
export function wholeEnvReference(text: string, syntax: EnvRefSyntax): string | null {
  const m = /^\$\{([^{}]+)\}$/.exec(text);
  if (m === null || syntax === 'none') return null;
  const inner = m[1]!;
  const name = syntax === 'env-prefix' ? (inner.startsWith('env:') ? inner.slice(4) : null) : inner;
  return name !== null && MCP_ENV_NAME.test(name) ? name : null;
}

/** Replaces every placeholder whose id has a literal answer; returns the text and the ids left unanswered. */
export function substitutePlaceholders(
  text: string,
  literal: (id: string) => string | undefined,
): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(PLACEHOLDER, (whole, inner: string) => {
    const { id } = placeholderUse(inner);
    const value = literal(id);
    if (value === undefined) {
      missing.push(id);
      return whole;
    }
    return value;
  });
  return { text: out, missing };
}

/** What a question is about, in words, for placeholders the file does not describe itself. */
export function describePlaceholder(id: string): string {
  if (id.startsWith('env:')) return `The value of the environment variable ${id.slice(4)}.`;
  if (id.startsWith('input:')) return `The value VS Code would prompt for as "${id.slice(6)}".`;
  if (id === 'workspaceFolder') return 'The project folder the configuration belongs to.';
  if (id === 'workspaceFolderBasename') return 'The name of the project folder the configuration belongs to.';
  if (id === 'userHome') return 'Your home folder.';
  if (MCP_ENV_NAME.test(id)) return `The value of the environment variable ${id}.`;
  return `The value of \${${id}}.`;
}
