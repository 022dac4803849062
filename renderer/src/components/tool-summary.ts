/** One-line descriptions of a tool call's arguments, shared by tool cards and approval cards. */

const MAX_SUMMARY = 240;

function field(input: unknown, key: string): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return (input as Record<string, unknown>)[key];
}

function text(input: unknown, key: string): string | null {
  const value = field(input, key);
  return typeof value === 'string' ? value : null;
}

/** Quotes an Exec argument the way a shell would need it, so the line reads like a command. */
function shellWord(arg: string): string {
  if (arg !== '' && /^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Newlines and runs of whitespace become one space; long lines end with an ellipsis. */
export function oneLine(value: string, max = MAX_SUMMARY): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function compactJson(input: unknown): string {
  if (input === undefined) return '';
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return String(input);
  }
}

/** The argument that says what a call does: Bash's command, a file's path, a search pattern… */
export function summarizeToolInput(name: string, input: unknown): string {
  let summary: string | null = null;
  switch (name) {
    case 'Bash':
      summary = text(input, 'command');
      break;
    case 'Read':
    case 'Write':
    case 'Edit':
      summary = text(input, 'path') ?? text(input, 'file_path');
      break;
    case 'Grep':
    case 'Glob':
      summary = text(input, 'pattern');
      break;
    case 'Exec': {
      const program = text(input, 'program');
      const args = field(input, 'args');
      if (program !== null) {
        const words = Array.isArray(args) ? args.map((a) => shellWord(String(a))) : [];
        summary = [shellWord(program), ...words].join(' ');
      }
      break;
    }
    case 'AskUserQuestion':
      summary = text(input, 'question');
      break;
  }
  return oneLine(summary ?? compactJson(input));
}

/** Pretty JSON for the expanded card; never throws. */
export function prettyJson(input: unknown): string {
  if (input === undefined) return '';
  try {
    return JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    return String(input);
  }
}
