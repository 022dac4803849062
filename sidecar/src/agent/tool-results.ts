import { estimateTokens } from '../context/token-estimate';
import type { CallOutcome } from '../tools/runtime/call-request';

/** Results larger than this many tokens go to a file; the model gets the path and a preview. */
export const RESULT_TOKEN_LIMIT = 4096;
const PREVIEW_CHARS = 2000;

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** A call's outcome as the model reads it: whole when small, else where it is kept and a preview. */
export function toolResultBlock(use: ToolUse, outcome: CallOutcome): ToolResultBlock {
  const tokens = estimateTokens(outcome.content);
  const content =
    tokens > RESULT_TOKEN_LIMIT && outcome.resultFile
      ? `The result is ${outcome.content.length} characters (about ${tokens} tokens), too large to show in full. ` +
        `It was saved to ${outcome.resultFile}; read parts of it with Read (offset, limit) or search it with Grep.\n` +
        `Preview:\n${outcome.content.slice(0, PREVIEW_CHARS)}`
      : outcome.content;
  return {
    type: 'tool_result',
    tool_use_id: use.id,
    content: content || '(no output)',
    ...(outcome.isError ? { is_error: true } : {}),
  };
}
