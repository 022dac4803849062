import type { Question, ToolCall, TurnWithDetails } from '../../../sidecar/src/protocol';
import { NO_FILE_HISTORY } from '../../src/state/turn-view';

/** Stored records as the sidecar answers them, for tests of background and script calls. */

export function storedToolCall(patch: Partial<ToolCall> & { id: string }): ToolCall {
  return {
    session_id: 's',
    turn_id: 't1',
    tool_use_id: `tu-${patch.id}`,
    name: 'Bash',
    input: { command: 'sleep 60' },
    status: 'running',
    is_error: false,
    preview: null,
    result_file: null,
    started_at: '2026-01-01T00:00:01.000Z',
    finished_at: null,
    duration_ms: null,
    parent_tool_call_id: null,
    background: false,
    exit_code: null,
    meta: null,
    ...patch,
  };
}

export function approvalFor(call: ToolCall, patch: Partial<Question> = {}): Question {
  return {
    id: `q-${call.id}`,
    session_id: call.session_id,
    turn_id: call.turn_id,
    tool_call_id: call.id,
    fork_id: null,
    elicitation: null,
    kind: 'approval',
    question: `Allow ${call.name} (from a script of call ${call.parent_tool_call_id})?`,
    options: ['allow', 'deny'],
    tool: { name: call.name, input: call.input },
    permission: null,
    status: 'pending',
    answer: null,
    created_at: '',
    answered_at: null,
    ...patch,
  };
}

/**
 * A stored turn whose model called `calls` (those without a parent) in one response, each answered by a
 * tool_result (a background call's is its receipt), then said "ok".
 */
export function storedTurn(
  id: string,
  calls: ToolCall[],
  questions: Question[] = [],
  ordinal = 1,
): TurnWithDetails {
  const own = calls.filter((c) => c.parent_tool_call_id === null);
  const message = (m: number, role: 'user' | 'assistant', content: Record<string, unknown>[]) => ({
    id: ordinal * 10 + m,
    turn_id: id,
    role,
    content: content as { type: string }[],
    internal: false,
    created_at: '',
  });
  return {
    id,
    session_id: 's',
    ordinal,
    request_id: `r-${id}`,
    prompt: `prompt ${id}`,
    status: 'completed',
    error: null,
    usage: null,
    cost: null,
    ...NO_FILE_HISTORY,
    answer: null,
    continuations: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:05.000Z',
    messages: [
      message(0, 'user', [{ type: 'text', text: `prompt ${id}` }]),
      message(
        1,
        'assistant',
        own.map((c) => ({ type: 'tool_use', id: c.tool_use_id, name: c.name, input: c.input })),
      ),
      message(
        2,
        'user',
        own.map((c) => ({
          type: 'tool_result',
          tool_use_id: c.tool_use_id,
          content: c.background
            ? JSON.stringify({ call_id: c.id, status: 'running', result_dir: `/data/${c.id}` })
            : (c.preview ?? ''),
        })),
      ),
      message(3, 'assistant', [{ type: 'text', text: 'ok' }]),
    ],
    tool_calls: calls,
    questions,
    compactions: [],
  };
}
