import fs from 'node:fs';
import type { ContentBlock } from '../protocol';

/** The most of one document the index holds: enough to find a long result by its words, not a whole log. */
export const MAX_DOC_CHARS = 20_000;

export const clip = (text: string, max = MAX_DOC_CHARS): string =>
  text.length > max ? text.slice(0, max) : text;

/** A message's own words: its text blocks (tool results are indexed with their calls, thinking is not shown). */
export function messageText(content: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
  }
  return clip(parts.join('\n').trim());
}

/**
 * A tool call's input as a person reads it: `key: value` lines with strings as they are. As JSON, a
 * multi-line command's "\n" would glue the next line's first word to an "n" and hide it from search.
 */
function inputText(json: string): string {
  const lines: string[] = [];
  const walk = (value: unknown, key: string | null): void => {
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, Array.isArray(value) ? key : k);
    } else if (value !== null && value !== undefined) {
      lines.push(key === null ? String(value) : `${key}: ${String(value)}`);
    }
  };
  try {
    walk(JSON.parse(json), null);
  } catch {
    return json;
  }
  return lines.join('\n');
}

/** A tool call as found: its name, its input, then its result (the full file when there is one). */
export function toolCallText(call: {
  name: string;
  input: string;
  preview: string | null;
  result_file: string | null;
}): string {
  const result = (call.result_file ? readStart(call.result_file) : null) ?? call.preview ?? '';
  return clip(`${call.name} ${inputText(call.input)}${result ? `\n${result}` : ''}`);
}

/**
 * The start of a result file, or null when it is gone. Reading is bounded (UTF-8 is at most 4 bytes a
 * character), so a huge log costs no more than the clip keeps.
 */
function readStart(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(MAX_DOC_CHARS * 4);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, read);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

interface KernelOutputEvent {
  type: string;
  text?: unknown;
  return_value?: { text?: unknown } | null;
  error?: { summary?: unknown } | null;
  message?: unknown;
}

/** What a kernel event adds to its cell's output text (stdout/stderr, the return value, the error). */
export function kernelOutputText(event: KernelOutputEvent): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (event.type) {
    case 'kernel.stream':
      return str(event.text);
    case 'kernel.result':
      return [str(event.return_value?.text), str(event.error?.summary)].filter(Boolean).join('\n');
    case 'kernel.error':
    case 'kernel.died':
      return str(event.message);
    default:
      return '';
  }
}
