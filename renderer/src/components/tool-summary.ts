/** Reading a tool call's arguments: one-line descriptions for tool cards, fields for approval cards. */

const MAX_SUMMARY = 240;

/** One field of a call's input; undefined when the input is not an object. */
export function inputField(input: unknown, key: string): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return (input as Record<string, unknown>)[key];
}

/** A string argument, or null when it is missing or not a string. */
export function inputText(input: unknown, key: string): string | null {
  const value = inputField(input, key);
  return typeof value === 'string' ? value : null;
}

/** Quotes an Exec argument the way a shell would need it, so the line reads like a command. */
function shellWord(arg: string): string {
  if (arg !== '' && /^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Exec's program and arguments as one shell-quoted line, or null when there is no program. */
export function execCommandLine(input: unknown): string | null {
  const program = inputText(input, 'program');
  if (program === null) return null;
  const args = inputField(input, 'args');
  const words = Array.isArray(args) ? args.map((a) => shellWord(String(a))) : [];
  return [shellWord(program), ...words].join(' ');
}

/** Newlines and runs of whitespace become one space; long lines end with an ellipsis. */
export function oneLine(value: string, max = MAX_SUMMARY): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A value in a line of prose: strings as they are, anything else as compact JSON. */
function readableValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** An object's fields as `key: value, key: value` (never JSON braces); other inputs as their value. */
export function readableArguments(input: unknown): string {
  if (input === undefined || input === null) return '';
  if (typeof input !== 'object' || Array.isArray(input)) return readableValue(input);
  return Object.entries(input as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${readableValue(value)}`)
    .join(', ');
}

/** The argument that says what a call does: Bash's command, a file's path, a search pattern… */
export function summarizeToolInput(name: string, input: unknown): string {
  let summary: string | null = null;
  switch (name) {
    case 'Bash':
      summary = inputText(input, 'command');
      break;
    case 'Read':
    case 'Write':
    case 'Edit':
      summary = inputText(input, 'path') ?? inputText(input, 'file_path');
      break;
    case 'Grep':
    case 'Glob':
      summary = inputText(input, 'pattern');
      break;
    case 'Exec':
      summary = execCommandLine(input);
      break;
    case 'AskUserQuestion':
      summary = inputText(input, 'question');
      break;
  }
  return oneLine(summary ?? readableArguments(input));
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
