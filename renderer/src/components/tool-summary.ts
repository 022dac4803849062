/** Reading a tool call's arguments: one-line descriptions for tool cards, fields for approval cards. */
import { boundedJson } from './bounded-json';

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
  // Only the start can show: a huge value is cut before the whitespace pass, which would read all of it.
  const flat = (value.length > max * 4 ? value.slice(0, max * 4) : value).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A value in a line of prose: strings as they are, anything else as compact JSON; at most `max` characters. */
function readableValue(value: unknown, max: number): string {
  if (typeof value === 'string') return value.length > max ? value.slice(0, max) : value;
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return String(value);
  return boundedJson(value, max);
}

/**
 * An object's fields as `key: value, key: value` (never JSON braces); other inputs as their value. Only
 * what a summary line can show is read: long values are cut and the fields stop at `max` characters.
 */
export function readableArguments(input: unknown, max = MAX_SUMMARY * 4): string {
  if (input === undefined || input === null) return '';
  if (typeof input !== 'object' || Array.isArray(input)) return readableValue(input, max);
  const parts: string[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (size >= max) break;
    const part = `${key}: ${readableValue(value, max)}`;
    parts.push(part);
    size += part.length + 2;
  }
  return parts.join(', ');
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
