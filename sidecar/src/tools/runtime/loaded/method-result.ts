import type { ToolResult } from '../../tool';

/** The most of a stream's items kept for its final result (the newest); its output pieces hold them all. */
export const STREAM_RESULT_MAX_CHARS = 100_000;

/**
 * A method's return value as a result: a string is the content; `{content, is_error?, meta?}` is taken as
 * it is (`isError` is accepted too); anything else is shown as JSON.
 */
export function valueResult(value: unknown): ToolResult {
  if (typeof value === 'string') return { content: value };
  if (value === null || value === undefined) return { content: '(no result)' };
  if (isObject(value) && typeof value.content === 'string') {
    const isError = value.is_error ?? value.isError;
    return {
      content: value.content,
      ...(typeof isError === 'boolean' ? { isError } : {}),
      ...(isObject(value.meta) ? { meta: value.meta } : {}),
    };
  }
  return { content: JSON.stringify(value, null, 2) };
}

/**
 * A stream method's items as they came, for its final result: the generator's return value when it returns
 * one, else the items joined (each ending a line), the newest STREAM_RESULT_MAX_CHARS of them.
 */
export class StreamCollector {
  private parts: string[] = [];
  private length = 0;
  private dropped = 0;
  items = 0;

  add(text: string): void {
    this.items++;
    const part = text.endsWith('\n') ? text : `${text}\n`;
    this.parts.push(part);
    this.length += part.length;
    while (this.length > STREAM_RESULT_MAX_CHARS && this.parts.length > 1) {
      const first = this.parts.shift()!;
      this.length -= first.length;
      this.dropped += first.length;
    }
  }

  result(returned: unknown): ToolResult {
    if (returned !== null && returned !== undefined) {
      return withMeta(valueResult(returned), { items: this.items });
    }
    const text = this.parts.join('');
    const note =
      this.dropped > 0 ? `[${this.dropped} earlier characters are in the call's output pieces]\n` : '';
    return { content: note + text || '(no items)', meta: { items: this.items } };
  }
}

/** The result of a call that was cancelled: whether the method ended, or runs on unseen. */
export function cancelledResult(
  tool: string,
  method: string,
  stopped: boolean,
  graceMs: number,
  items: number | null,
): ToolResult {
  const what = `${tool}.${method}`;
  const sent = items === null ? '' : ` after ${items} item${items === 1 ? '' : 's'}`;
  const content = stopped
    ? `Cancelled: ${what} stopped${sent}.`
    : `Cancelled: ${what} did not stop within ${graceMs / 1000} s of being cancelled${sent}. Its result ` +
      'will be dropped, but it may run on in the tool until the tool is stopped.';
  return { content, isError: true, meta: { cancelled: true, method_stopped: stopped } };
}

function withMeta(result: ToolResult, meta: Record<string, unknown>): ToolResult {
  return { ...result, meta: { ...meta, ...result.meta } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
