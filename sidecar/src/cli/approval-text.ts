import path from 'node:path';
import { hiddenWarning, revealHidden } from './reveal-hidden';

/**
 * A file's content or an edit's strings longer than this many lines show their first HEAD and last TAIL
 * lines around a line that counts the rest; commands and code are always shown whole.
 */
const MAX_LINES = 400;
const HEAD = 200;
const TAIL = 100;

type Part =
  | { kind: 'field'; label: string; value: string }
  | { kind: 'text'; label: string; text: string; mark: string; clip: boolean };

/**
 * What a tool call waiting for approval would do, as terminal lines: the whole command or code, a file's
 * full path with what is written or replaced, else the whole input as JSON. Invisible and bidirectional
 * control characters are shown escaped, with a warning line first.
 */
export function approvalLines(tool: { name: string; input: unknown }, workspace: string | null): string[] {
  const name = revealHidden(tool.name);
  let hidden = name.hidden;
  let hiddenNotShown = 0;
  const body: string[] = [];
  for (const part of partsFor(tool.name, tool.input, workspace)) {
    if (part.kind === 'field') {
      const value = revealHidden(part.value);
      hidden += value.hidden;
      body.push(`  ${part.label}: ${value.text}`);
      continue;
    }
    const { lines, crlf } = splitLines(part.text);
    body.push(`  ${part.label}, ${describeSize(part.text, lines.length, crlf)}:`);
    if (lines.length === 0) body.push('    (empty)');
    const clipped = part.clip && lines.length > MAX_LINES;
    lines.forEach((line, i) => {
      const shown = revealHidden(line);
      hidden += shown.hidden;
      if (clipped && i >= HEAD && i < lines.length - TAIL) {
        hiddenNotShown += shown.hidden;
        if (i === HEAD) body.push(`  … ${lines.length - HEAD - TAIL} more lines not shown here …`);
        return;
      }
      body.push(`  ${part.mark}${shown.text}`);
    });
  }
  const warning =
    hidden === 0
      ? []
      : [
          `  ${hiddenWarning(hidden)}${hiddenNotShown > 0 ? ` (${hiddenNotShown} of them in the lines not shown)` : ''}`,
        ];
  return [`? Allow ${name.text}?`, ...warning, ...body];
}

function partsFor(name: string, input: unknown, workspace: string | null): Part[] {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const { command, code, program, args, content, old_string, new_string } = record;
  const file = typeof record.path === 'string' ? fullPath(record.path, workspace) : null;
  if (name === 'Bash' && typeof command === 'string') {
    const timeout = typeof record.timeout === 'number' ? [field('timeout', `${record.timeout} s`)] : [];
    return [text('command', command), ...timeout];
  }
  if (name === 'execute_code' && typeof code === 'string') {
    const kernel = typeof record.kernel === 'string' ? [field('kernel', record.kernel)] : [];
    return [...kernel, text('Python code', code)];
  }
  if (name === 'Exec' && typeof program === 'string' && Array.isArray(args)) {
    // As JSON, so where each argument begins and ends is plain (they are passed without a shell).
    return [field('program', program), field('arguments', JSON.stringify(args))];
  }
  if (name === 'Write' && file !== null && typeof content === 'string') {
    return [field('file', file), text('content', content, { clip: true })];
  }
  if (name === 'Edit' && file !== null && typeof old_string === 'string' && typeof new_string === 'string') {
    const every = record.replace_all === true ? ' every occurrence of' : '';
    return [
      field('file', file),
      text(`replace${every}`, old_string, { mark: '- ', clip: true }),
      text('with', new_string, { mark: '+ ', clip: true }),
    ];
  }
  return [text('input', JSON.stringify(input, null, 2) ?? String(input))];
}

function field(label: string, value: string): Part {
  return { kind: 'field', label, value };
}

function text(label: string, value: string, options: { mark?: string; clip?: boolean } = {}): Part {
  return { kind: 'text', label, text: value, mark: options.mark ?? '│ ', clip: options.clip ?? false };
}

/** The path the tool will touch: relative ones resolved against the project folder. */
function fullPath(given: string, workspace: string | null): string {
  if (workspace === null || path.isAbsolute(given)) return given;
  return `${path.resolve(workspace, given)} (given as ${given})`;
}

/**
 * The lines of a text; a final line break ends the last line rather than starting an empty one. Windows
 * line breaks (every one CRLF) are said once rather than shown as an escaped CR on every line.
 */
function splitLines(value: string): { lines: string[]; crlf: boolean } {
  if (value === '') return { lines: [], crlf: false };
  const crlf = value.includes('\r\n') && !/(^|[^\r])\n/.test(value);
  const lines = value.split(crlf ? '\r\n' : '\n');
  if (lines.at(-1) === '') lines.pop();
  return { lines, crlf };
}

function describeSize(value: string, lines: number, crlf: boolean): string {
  const bytes = Buffer.byteLength(value, 'utf8');
  return `${lines} line${lines === 1 ? '' : 's'}, ${bytes} byte${bytes === 1 ? '' : 's'}${crlf ? ', CRLF line breaks' : ''}`;
}
