import type {
  CairnEvent,
  LoadedTool,
  ToolCall,
  ToolCallOutput,
  ToolRuntimeInfo,
} from '../../../sidecar/src/protocol';
import type { ToolProgress } from './tool-items';

/** How many ended background calls stay listed besides the running ones (as the sidecar lists them). */
export const RECENT_ENDED = 20;
/** The characters of output a call's tail keeps. */
export const MAX_TAIL = 16 * 1024;

/** One background task as the side panel shows it: the call, and the newest of its output. */
export interface BackgroundCall {
  call: ToolCall;
  /** The newest output; null until it is read (a call that started before the panel opened). */
  tail: string | null;
  /** Output that arrived before the tail was read, joined to it when it is. */
  pending: string[];
  /** Older output than the tail holds exists (rotated away on the server, or cut here). */
  clipped: boolean;
  /** The newest progress an MCP call reported (`tool.progress`); null before any. */
  progress: ToolProgress | null;
}

/** A session's tool runtime in the side panel: its background calls and the tools it loaded. */
export interface BackgroundView {
  calls: BackgroundCall[];
  tools: LoadedTool[];
}

const RUNTIME_EVENTS = new Set<CairnEvent['type']>([
  'tool.started',
  'tool.running',
  'tool.output',
  'tool.progress',
  'tool.finished',
  'tool.loaded',
]);

export function isRuntimeEvent(event: CairnEvent): boolean {
  return RUNTIME_EVENTS.has(event.type);
}

export function isActive(call: ToolCall): boolean {
  return call.status === 'running' || call.status === 'waiting_approval';
}

export function backgroundFromInfo(info: ToolRuntimeInfo): BackgroundView {
  return {
    calls: info.calls.map((call) => ({ call, tail: null, pending: [], clipped: false, progress: null })),
    tools: info.loaded_tools,
  };
}

/** Applies one live event; events of calls that are not background calls change nothing. */
export function applyRuntimeEvent(view: BackgroundView, event: CairnEvent): BackgroundView {
  switch (event.type) {
    case 'tool.started': {
      if (!event.background || view.calls.some((c) => c.call.id === event.tool_call_id)) return view;
      // Seen from its start: its whole output comes as events, nothing needs reading.
      const call: ToolCall = {
        id: event.tool_call_id,
        session_id: event.session_id,
        turn_id: event.turn_id ?? '',
        tool_use_id: event.tool_use_id,
        name: event.name,
        input: event.input,
        status: event.status,
        is_error: false,
        preview: null,
        result_file: null,
        started_at: event.time,
        finished_at: null,
        duration_ms: null,
        parent_tool_call_id: event.parent_tool_call_id,
        background: true,
        exit_code: null,
        meta: null,
      };
      const item: BackgroundCall = { call, tail: '', pending: [], clipped: false, progress: null };
      return { ...view, calls: ordered([item, ...view.calls]) };
    }
    case 'tool.running':
      return changeCall(view, event.tool_call_id, (c) =>
        c.call.status === 'waiting_approval' ? { ...c, call: { ...c.call, status: 'running' } } : c,
      );
    case 'tool.output':
      return changeCall(view, event.tool_call_id, (c) => withOutput(c, event.text));
    case 'tool.progress':
      return changeCall(view, event.tool_call_id, (c) => ({
        ...c,
        progress: { progress: event.progress, total: event.total, message: event.message },
      }));
    case 'tool.finished': {
      const next = changeCall(view, event.tool_call_id, (c) => ({
        ...c,
        call: {
          ...c.call,
          status: event.status,
          is_error: event.is_error,
          preview: event.preview,
          duration_ms: event.duration_ms,
          exit_code: event.exit_code,
          finished_at: c.call.finished_at ?? event.time,
        },
      }));
      return next === view ? view : { ...next, calls: ordered(next.calls) };
    }
    case 'tool.loaded': {
      const others = view.tools.filter((t) => t.name !== event.tool.name);
      return { ...view, tools: [...others, event.tool].sort((a, b) => a.name.localeCompare(b.name)) };
    }
    default:
      return view;
  }
}

/** A call as the API answered (a cancel): its state replaces the one shown. */
export function replaceCall(view: BackgroundView, call: ToolCall): BackgroundView {
  const next = changeCall(view, call.id, (c) => ({ ...c, call }));
  return next === view ? view : { ...next, calls: ordered(next.calls) };
}

/**
 * The newest output pieces of a call, read on opening: they become its tail, followed by the output
 * that arrived meanwhile, less what the pieces already hold.
 */
export function applyOutput(view: BackgroundView, output: ToolCallOutput): BackgroundView {
  return changeCall(view, output.call_id, (c) => {
    const read = output.pieces.map((p) => p.text).join('');
    const tail = joinTail(read, c.pending);
    return {
      ...c,
      tail: tail.slice(-MAX_TAIL),
      pending: [],
      clipped: output.missing > 0 || tail.length > MAX_TAIL,
    };
  });
}

/**
 * The pieces were written up to some moment; the events that arrived while they were read may be in them
 * already (a piece holds what came within a short window). Whole events the read ends with are not
 * repeated.
 */
function joinTail(read: string, pending: readonly string[]): string {
  for (let count = pending.length; count > 0; count--) {
    if (read.endsWith(pending.slice(0, count).join(''))) return read + pending.slice(count).join('');
  }
  return read + pending.join('');
}

function withOutput(c: BackgroundCall, text: string): BackgroundCall {
  if (c.tail === null) {
    // Kept until the tail is read; only the newest matter if that takes long.
    const pending = [...c.pending, text];
    let size = pending.reduce((n, p) => n + p.length, 0);
    while (pending.length > 1 && size > 4 * MAX_TAIL) size -= pending.shift()!.length;
    return { ...c, pending };
  }
  const tail = c.tail + text;
  return { ...c, tail: tail.slice(-MAX_TAIL), clipped: c.clipped || tail.length > MAX_TAIL };
}

function changeCall(
  view: BackgroundView,
  id: string,
  change: (c: BackgroundCall) => BackgroundCall,
): BackgroundView {
  const index = view.calls.findIndex((c) => c.call.id === id);
  if (index === -1) return view;
  const calls = view.calls.slice();
  calls[index] = change(calls[index]!);
  return { ...view, calls };
}

/** Running calls first (newest first), then the newest ended ones, as many as the sidecar keeps listed. */
function ordered(calls: readonly BackgroundCall[]): BackgroundCall[] {
  const newest = (a: string | null, b: string | null) => (b ?? '').localeCompare(a ?? '');
  const running = calls.filter((c) => isActive(c.call));
  const ended = calls.filter((c) => !isActive(c.call));
  running.sort((a, b) => newest(a.call.started_at, b.call.started_at));
  ended.sort((a, b) => newest(a.call.finished_at, b.call.finished_at));
  return [...running, ...ended.slice(0, RECENT_ENDED)];
}
