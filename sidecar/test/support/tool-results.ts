import type { MessagesRequestBody, RecordedRequest } from './model-server';

export interface SeenToolResult {
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** The tool_result blocks of a request's last user message, as the model read them. */
export function lastToolResults(req: RecordedRequest | { body: MessagesRequestBody }): SeenToolResult[] {
  const last = req.body.messages.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
  return (last.content as { type: string }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => {
      const block = b as unknown as { tool_use_id: string; content: unknown; is_error?: boolean };
      const content =
        typeof block.content === 'string'
          ? block.content
          : (block.content as { text?: string }[]).map((c) => c.text ?? '').join('');
      return { tool_use_id: block.tool_use_id, content, ...(block.is_error ? { is_error: true } : {}) };
    });
}

/** The text blocks of a request's last user message (notices Cairn adds after the results). */
export function lastUserTexts(req: RecordedRequest): string[] {
  const last = req.body.messages.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
  return (last.content as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '');
}

/** The receipt of a call started with "is_wait": false, from the model's view of its result. */
export function receiptOf(req: RecordedRequest): { call_id: string; status: string; result_dir: string } {
  const [result] = lastToolResults(req);
  if (!result) throw new Error('the request has no tool result');
  return JSON.parse(result.content) as { call_id: string; status: string; result_dir: string };
}
