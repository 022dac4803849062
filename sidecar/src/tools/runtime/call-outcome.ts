import type { ToolCallStatus } from '../../protocol';
import { CallStop, type StopKind } from './running-calls';

/** How a call ended, before its files and record are written. */
export interface Ended {
  status: ToolCallStatus;
  content: string;
  isError: boolean;
  exitCode: number | null;
  meta: Record<string, unknown>;
}

export function failed(content: string): Ended {
  return { status: 'failed', isError: true, content, exitCode: null, meta: {} };
}

export function stopMessage(kind: StopKind): string {
  switch (kind) {
    case 'timeout':
      return 'The call timed out and was stopped with everything it started.';
    case 'parent':
      return 'The call that started it ended, so it was cancelled with everything it started.';
    case 'session_closed':
      return 'Its session was deleted, so the call was cancelled with everything it started.';
    case 'shutdown':
      return 'Cairn stopped while this call ran, so it was stopped with everything it started.';
    default:
      return 'The call was cancelled; everything it started was stopped.';
  }
}

/**
 * The outcome of a call whose signal was aborted: cancelled (by the turn, ToolControl or its parent),
 * failed on its timeout, or interrupted by Cairn stopping. What the tool returned before it stopped (a
 * command's output so far) is kept.
 */
export function stopped(reason: unknown, partial: Ended | null): Ended {
  const stop = reason instanceof CallStop ? reason : null;
  const status: ToolCallStatus =
    stop?.kind === 'timeout' ? 'failed' : stop?.kind === 'shutdown' ? 'interrupted' : 'cancelled';
  const note = stop?.message ?? 'The user cancelled this tool call; its process tree was stopped.';
  const body = partial?.content ?? '';
  return {
    status,
    isError: true,
    content: body === '' ? note : `${body}${body.endsWith('\n') ? '' : '\n'}${note}`,
    exitCode: null,
    meta: { ...(partial?.meta ?? {}), stopped: stop?.kind ?? 'cancelled' },
  };
}
