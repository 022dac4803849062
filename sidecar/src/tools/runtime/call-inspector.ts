import { notFound } from '../../errors';
import type { ToolCall, ToolCallOutput } from '../../protocol';
import type { Store } from '../../store/store';
import type { ToolCallFiles } from '../tool-call-files';
import { readPieces } from './call-pieces';
import type { ToolCallRunner } from './tool-call-runner';

/** How many ended background calls `list` shows besides the running ones. */
export const RECENT_CALLS = 20;

/** A call's state as ToolControl status, the scripts' `status` and the API give it. */
export interface CallStatus {
  call_id: string;
  name: string;
  status: ToolCall['status'];
  background: boolean;
  parent_tool_call_id: string | null;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  is_error: boolean;
  meta: Record<string, unknown>;
  result_dir: string;
}

/**
 * Reads and stops a session's calls: status, output pieces, the list of background calls, cancel. Every
 * lookup is confined to one session, so a script or a model never reaches another session's calls.
 */
export class CallInspector {
  constructor(private readonly deps: { store: Store; files: ToolCallFiles; runner: ToolCallRunner }) {}

  call(sessionId: string, callId: string): ToolCall {
    const call = this.deps.store.toolCalls.get(callId);
    if (!call || call.session_id !== sessionId) throw notFound('Tool call', callId);
    return call;
  }

  status(sessionId: string, callId: string): CallStatus {
    const call = this.call(sessionId, callId);
    const running = this.deps.runner.running.get(call.id) !== undefined;
    const durationMs = call.duration_ms ?? (running ? Date.now() - Date.parse(call.started_at) : null);
    return {
      call_id: call.id,
      name: call.name,
      status: call.status,
      background: call.background,
      parent_tool_call_id: call.parent_tool_call_id,
      started_at: call.started_at,
      finished_at: call.finished_at,
      duration_ms: durationMs,
      exit_code: call.exit_code,
      is_error: call.is_error,
      meta: call.meta ?? {},
      result_dir: this.deps.files.callDir(sessionId, call.id),
    };
  }

  /** The newest output pieces, or those after `after`. */
  output(sessionId: string, callId: string, after?: number): ToolCallOutput {
    const call = this.call(sessionId, callId);
    const read = readPieces(this.deps.files.callDir(sessionId, call.id), after);
    return {
      call_id: call.id,
      status: call.status,
      pieces: read.pieces,
      next_after: read.nextAfter,
      missing: read.missing,
      running: call.status === 'running' || call.status === 'waiting_approval',
    };
  }

  /** The session's background calls: the running ones first, then the newest ended ones. */
  list(sessionId: string): ToolCall[] {
    return this.deps.store.toolCalls.background(sessionId, RECENT_CALLS);
  }

  /**
   * Cancels a running call of the session with every call its scripts started, and waits until it has
   * stopped; a call that has ended already is left as it is. Returns the call as it is now. `signal` is
   * the asking call's own: a script's ToolControl that cancels its ancestor is itself cancelled by that,
   * and must not wait for its own end.
   */
  async cancel(
    sessionId: string,
    callId: string,
    signal?: AbortSignal,
  ): Promise<{ call: ToolCall; cancelled: boolean }> {
    const call = this.call(sessionId, callId);
    const stopping = this.deps.runner.cancel(call.id);
    const cancelled = signal
      ? await Promise.race([
          stopping,
          new Promise<boolean>((resolve) => {
            if (signal.aborted) resolve(true);
            signal.addEventListener('abort', () => resolve(true), { once: true });
          }),
        ])
      : await stopping;
    return { call: this.deps.store.toolCalls.get(call.id)!, cancelled };
  }
}
