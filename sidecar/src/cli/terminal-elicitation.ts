import readline from 'node:readline/promises';
import {
  type AnswerQuestionRequest,
  checkElicitationContent,
  type ElicitationField,
  type ElicitationValue,
  elicitationFields,
  type Question,
} from '../protocol';
import { revealHidden } from './reveal-hidden';

const show = (text: string) => revealHidden(text).text;

const FORMAT_HINT = {
  email: 'an email address',
  uri: 'a URI',
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDTHH:MM:SSZ',
} as const;

/** What a field's prompt says besides its name: its kind, range or choices, and its default. */
function hint(f: ElicitationField): string {
  const parts: string[] = [];
  if (f.kind === 'string' && f.format) parts.push(FORMAT_HINT[f.format]);
  if (f.kind === 'number' || f.kind === 'integer') {
    const range = [f.min === null ? '' : `≥ ${f.min}`, f.max === null ? '' : `≤ ${f.max}`].filter(Boolean);
    parts.push([f.kind === 'integer' ? 'a whole number' : 'a number', ...range].join(' '));
  }
  if (f.kind === 'boolean') parts.push('y/n');
  if (f.kind === 'multiselect') parts.push('numbers or values separated by commas, "-" for none');
  if (f.default !== null)
    parts.push(`Enter: ${Array.isArray(f.default) ? f.default.join(', ') : String(f.default)}`);
  // The default and the choices are the server's: shown as its other text is, never raw to the terminal.
  return parts.length ? ` (${show(parts.join('; '))})` : '';
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** One option by its number, value or title. */
function pick(f: Extract<ElicitationField, { options: unknown }>, raw: string): string | undefined {
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 1 && n <= f.options.length) return f.options[n - 1]!.value;
  return f.options.find((o) => o.value === raw || o.label === raw)?.value;
}

/** A typed line as the field's value; undefined: left empty (the default, if any, applies). */
function parse(f: ElicitationField, raw: string): ElicitationValue | undefined {
  if (raw === '') return undefined;
  switch (f.kind) {
    case 'number':
    case 'integer':
      // A number as JSON writes one (Number() would also take "0x1A" or " 12 ").
      return JSON_NUMBER.test(raw) ? Number(raw) : raw;
    case 'boolean':
      return /^(y|yes|true)$/i.test(raw) ? true : /^(n|no|false)$/i.test(raw) ? false : raw;
    case 'select':
      return pick(f, raw) ?? raw;
    case 'multiselect':
      return raw === '-' ? [] : raw.split(',').map((part) => pick(f, part.trim()) ?? part.trim());
    default:
      return raw;
  }
}

/**
 * Asks an MCP server's form at the terminal: accept (then field by field, each checked as typed),
 * decline or cancel. Aborting withdraws the prompt.
 */
export async function askElicitationAtTerminal(
  question: Question,
  signal: AbortSignal,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = {
    input: process.stdin,
    output: process.stderr,
  },
): Promise<AnswerQuestionRequest> {
  const schema = question.elicitation?.requested_schema ?? {};
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const rl = readline.createInterface({ input: io.input, output: io.output });
  const say = (line: string) => io.output.write(`${line}\n`);
  try {
    say('  1. fill in the form');
    say('  2. decline');
    say('  3. cancel');
    for (;;) {
      const raw = (await rl.question('> ', { signal })).trim().toLowerCase();
      if (raw === '2' || raw === 'decline') return { answer: 'decline' };
      if (raw === '3' || raw === 'cancel') return { answer: 'cancel' };
      if (raw === '1' || raw === 'fill' || raw === 'accept') break;
      if (raw.length > 0) say('  Answer 1, 2 or 3.');
    }
    const content: Record<string, ElicitationValue> = {};
    for (const f of elicitationFields(schema)) {
      say(`  ${show(f.label)}${f.required ? ' (required)' : ''}${hint(f)}`);
      if (f.description) say(`    ${show(f.description)}`);
      if (f.kind === 'select' || f.kind === 'multiselect') {
        for (const [i, o] of f.options.entries()) say(`    ${i + 1}. ${show(o.label)}`);
      }
      for (;;) {
        const value = parse(f, (await rl.question('  > ', { signal })).trim());
        // This field alone, checked as the server's answer will be (its default filled when left empty).
        const one = {
          type: 'object',
          properties: { [f.name]: props[f.name] },
          required: f.required ? [f.name] : [],
        };
        const checked = checkElicitationContent(one, value === undefined ? {} : { [f.name]: value });
        if (checked.ok) {
          if (checked.content[f.name] !== undefined) content[f.name] = checked.content[f.name]!;
          break;
        }
        // The error may quote the server's choices ("must be one of: …").
        say(`  ${show(f.label)} ${show(checked.errors[f.name] ?? 'is not valid')}.`);
      }
    }
    return { answer: 'accept', content };
  } finally {
    rl.close();
  }
}
