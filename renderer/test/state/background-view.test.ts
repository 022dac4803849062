import { describe, expect, it } from 'vitest';
import type { NewEvent, ToolCallOutput } from '../../../sidecar/src/protocol';
import {
  applyOutput,
  applyRuntimeEvent,
  type BackgroundView,
  backgroundFromInfo,
  MAX_TAIL,
  RECENT_ENDED,
} from '../../src/state/background-view';
import { eventMaker } from '../support/journal-events';
import { storedToolCall } from '../support/tool-calls';

const ev = eventMaker('s');
const play = (view: BackgroundView, events: NewEvent[]) =>
  events.reduce((v, e) => applyRuntimeEvent(v, ev(e)), view);
const out = (callId: string, text: string): NewEvent => ({
  type: 'tool.output',
  turn_id: 't1',
  tool_call_id: callId,
  stream: 'stdout',
  text,
});
const read = (callId: string, texts: string[], missing = 0): ToolCallOutput => ({
  call_id: callId,
  status: 'running',
  pieces: texts.map((text, i) => ({ number: missing + i, text })),
  next_after: missing + texts.length - 1,
  missing,
  running: true,
});

describe('the background view', () => {
  it('joins the pieces read on opening with the output that came meanwhile, without repeating any', () => {
    const listed = backgroundFromInfo({
      calls: [storedToolCall({ id: 'tc1', background: true })],
      loaded_tools: [],
    });
    expect(listed.calls[0]!.tail).toBeNull();
    // Two chunks arrive while the pieces are read; the first is in them already, the second is not.
    const waiting = play(listed, [out('tc1', 'b\n'), out('tc1', 'c\n')]);
    const joined = applyOutput(waiting, read('tc1', ['a\n', 'b\n']));
    expect(joined.calls[0]).toMatchObject({ tail: 'a\nb\nc\n', pending: [], clipped: false });
    // Later output goes on the end; rotated-away pieces say the tail is not the whole output.
    expect(play(joined, [out('tc1', 'd\n')]).calls[0]!.tail).toBe('a\nb\nc\nd\n');
    expect(applyOutput(listed, read('tc1', ['x\n'], 7)).calls[0]!.clipped).toBe(true);
    const long = play(joined, [out('tc1', 'y'.repeat(MAX_TAIL))]).calls[0]!;
    expect(long.tail!.length).toBe(MAX_TAIL);
    expect(long.clipped).toBe(true);
  });

  it('adds a background call seen starting, ignores waited calls, and keeps running calls first', () => {
    const ended = storedToolCall({
      id: 'old',
      background: true,
      status: 'completed',
      // Before the test's events (their times count from 1970).
      finished_at: '1969-12-31T23:59:00.000Z',
      duration_ms: 1000,
    });
    const view = play(backgroundFromInfo({ calls: [ended], loaded_tools: [] }), [
      {
        type: 'tool.started',
        turn_id: 't2',
        tool_call_id: 'waited',
        tool_use_id: 'tu-w',
        name: 'Read',
        input: {},
        status: 'running',
        parent_tool_call_id: null,
        background: false,
      },
      {
        type: 'tool.started',
        turn_id: 't2',
        tool_call_id: 'new',
        tool_use_id: 'tu-n',
        name: 'Bash',
        input: { command: 'npm test' },
        status: 'running',
        parent_tool_call_id: null,
        background: true,
      },
      out('new', 'ok\n'),
    ]);
    expect(view.calls.map((c) => [c.call.id, c.call.status, c.tail])).toEqual([
      ['new', 'running', 'ok\n'],
      ['old', 'completed', null],
    ]);
    const done = play(view, [
      { type: 'tool.running', turn_id: 't2', tool_call_id: 'new' },
      {
        type: 'tool.finished',
        turn_id: 't2',
        tool_call_id: 'new',
        status: 'failed',
        is_error: true,
        duration_ms: 300,
        preview: 'x',
        exit_code: 2,
        meta: null,
      },
    ]);
    expect(done.calls.map((c) => c.call.id)).toEqual(['new', 'old']);
    expect(done.calls[0]!.call).toMatchObject({ status: 'failed', exit_code: 2, duration_ms: 300 });
    expect(done.calls[0]!.call.finished_at).not.toBeNull();
  });

  it(`keeps ${RECENT_ENDED} ended calls, the newest`, () => {
    const calls = Array.from({ length: RECENT_ENDED }, (_, i) =>
      storedToolCall({
        id: `e${i}`,
        background: true,
        status: 'completed',
        finished_at: `1969-12-31T23:59:${String(10 + i).padStart(2, '0')}.000Z`,
      }),
    );
    const running = storedToolCall({ id: 'r', background: true });
    const view = play(backgroundFromInfo({ calls: [running, ...calls.reverse()], loaded_tools: [] }), [
      {
        type: 'tool.finished',
        turn_id: 't1',
        tool_call_id: 'r',
        status: 'cancelled',
        is_error: true,
        duration_ms: 5,
        preview: '',
        exit_code: null,
        meta: null,
      },
    ]);
    expect(view.calls).toHaveLength(RECENT_ENDED);
    expect(view.calls[0]!.call.id).toBe('r');
    expect(view.calls.some((c) => c.call.id === 'e0')).toBe(false);
  });

  it('keeps the newest progress an MCP call in the background reported; other calls are untouched', () => {
    const listed = backgroundFromInfo({
      calls: [
        storedToolCall({ id: 'tc1', background: true }),
        storedToolCall({ id: 'tc2', background: true }),
      ],
      loaded_tools: [],
    });
    const progress = (p: number, total: number | null, message: string | null): NewEvent => ({
      type: 'tool.progress',
      turn_id: 't1',
      tool_call_id: 'tc1',
      progress: p,
      total,
      message,
    });
    const view = play(listed, [progress(1, 10, 'starting'), progress(4, 10, 'copying')]);
    expect(view.calls.find((c) => c.call.id === 'tc1')!.progress).toEqual({
      progress: 4,
      total: 10,
      message: 'copying',
    });
    expect(view.calls.find((c) => c.call.id === 'tc2')!.progress).toBeNull();
  });
});
