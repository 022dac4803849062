import { describe, expect, it } from 'vitest';
import type { KernelErrorDetails, NewEvent } from '../../../sidecar/src/protocol';
import {
  applyKernelEvent,
  EMPTY_KERNELS,
  type KernelsState,
  pendingInput,
  withKernelInfo,
  withVariables,
} from '../../src/state/kernel-view';
import { eventMaker } from '../support/journal-events';

const ev = eventMaker('s');
const play = (state: KernelsState, events: NewEvent[]) =>
  events.reduce((s, e) => applyKernelEvent(s, ev(e)), state);

const started = (kernel = 'default'): NewEvent => ({
  type: 'kernel.started',
  turn_id: null,
  kernel,
  pid: 42,
  python: '3.11.2',
  implementation: 'CPython',
  ipython: false,
  reason: 'first_use',
  warm: true,
});
const execution = (
  id: string,
  code: string,
  kernel = 'default',
  toolCallId: string | null = null,
): NewEvent => ({
  type: 'kernel.execution_started',
  turn_id: toolCallId ? 't1' : null,
  kernel,
  execution_id: id,
  code,
  tool_call_id: toolCallId,
});
const stream = (id: string, which: 'stdout' | 'stderr', text: string): NewEvent => ({
  type: 'kernel.stream',
  turn_id: null,
  kernel: 'default',
  execution_id: id,
  stream: which,
  text,
});
const result = (id: string, patch: Partial<Extract<NewEvent, { type: 'kernel.result' }>> = {}): NewEvent => ({
  type: 'kernel.result',
  turn_id: null,
  kernel: 'default',
  execution_id: id,
  success: true,
  return_value: { text: '2', artifacts: [] },
  error: null,
  execution_time_ms: 3,
  limit: null,
  state_lost: null,
  ...patch,
});

describe('the kernel reducer', () => {
  it('builds a cell from its start, streamed chunks (merged per stream, in order), display and result', () => {
    const state = play(EMPTY_KERNELS, [
      started(),
      execution('e1', "print('hi'); 1+1", 'default', 'tc1'),
      stream('e1', 'stdout', 'h'),
      stream('e1', 'stdout', 'i\n'),
      stream('e1', 'stderr', 'warn\n'),
      stream('e1', 'stdout', 'more\n'),
      {
        type: 'kernel.display',
        turn_id: null,
        kernel: 'default',
        execution_id: 'e1',
        text: '<Figure>',
        artifacts: [{ id: 'a1', mime: 'image/png', bytes: 10 }],
      },
    ]);
    const kernel = state.kernels[0]!;
    expect(kernel).toMatchObject({ name: 'default', state: 'busy', pid: 42, python: '3.11.2' });
    const cell = kernel.cells[0]!;
    expect(cell).toMatchObject({
      code: "print('hi'); 1+1",
      toolCallId: 'tc1',
      turnId: 't1',
      status: 'running',
    });
    expect(cell.outputs).toEqual([
      { kind: 'stream', stream: 'stdout', text: 'hi\n' },
      { kind: 'stream', stream: 'stderr', text: 'warn\n' },
      { kind: 'stream', stream: 'stdout', text: 'more\n' },
      {
        kind: 'display',
        output: { text: '<Figure>', artifacts: [{ id: 'a1', mime: 'image/png', bytes: 10 }] },
      },
    ]);
    const done = play(state, [result('e1')]);
    expect(done.kernels[0]!.state).toBe('idle');
    expect(done.kernels[0]!.cells[0]).toMatchObject({
      status: 'done',
      success: true,
      returnValue: { text: '2', artifacts: [] },
      executionTimeMs: 3,
    });
  });

  it('ignores an event it has already folded in (history and live overlap)', () => {
    const once = play(EMPTY_KERNELS, [execution('e1', 'x'), stream('e1', 'stdout', 'a')]);
    const replayed = applyKernelEvent(once, { ...ev(stream('e1', 'stdout', 'a')), seq: once.lastSeq });
    expect(replayed).toBe(once);
    expect(replayed.kernels[0]!.cells[0]!.outputs).toEqual([{ kind: 'stream', stream: 'stdout', text: 'a' }]);
  });

  it('advances past events that are not about kernels without adding anything', () => {
    const event = ev({ type: 'turn.started', turn_id: 't', ordinal: 1, prompt: 'hi' });
    const state = applyKernelEvent(EMPTY_KERNELS, event);
    expect(state.kernels).toEqual([]);
    expect(state.lastSeq).toBe(event.seq);
  });

  it('shows an input request until the result, and the kernel waits meanwhile', () => {
    const waiting = play(EMPTY_KERNELS, [
      execution('e1', 'input("name? ")'),
      {
        type: 'kernel.input_request',
        turn_id: null,
        kernel: 'default',
        execution_id: 'e1',
        request_id: 'r1',
        prompt: 'name? ',
        password: true,
      },
    ]);
    const kernel = waiting.kernels[0]!;
    expect(kernel.state).toBe('waiting_input');
    expect(pendingInput(kernel)?.request).toEqual({ requestId: 'r1', prompt: 'name? ', password: true });
    const answered = play(waiting, [result('e1')]);
    expect(pendingInput(answered.kernels[0]!)).toBeNull();
  });

  it('keeps a Python error with its summary and traceback, and a cell that could not run', () => {
    const error: KernelErrorDetails = {
      type: 'ZeroDivisionError',
      message: 'division by zero',
      line: 1,
      column: null,
      snippet: '1/0',
      pointer: null,
      summary: 'ZeroDivisionError: division by zero (line 1)',
      traceback: ['  File "<cell>", line 1', 'ZeroDivisionError: division by zero'],
    };
    const state = play(EMPTY_KERNELS, [
      execution('e1', '1/0'),
      result('e1', { success: false, return_value: null, error }),
      execution('e2', 'x'),
      {
        type: 'kernel.error',
        turn_id: null,
        kernel: 'default',
        execution_id: 'e2',
        code: 'python_not_found',
        message: 'no',
      },
    ]);
    const [first, second] = state.kernels[0]!.cells;
    expect(first).toMatchObject({ status: 'failed', error, success: false });
    expect(second).toMatchObject({ status: 'failed', failure: { code: 'python_not_found', message: 'no' } });
    expect(state.kernels[0]!.state).toBe('idle');
  });

  it('marks the running cell when its kernel dies, and a new start clears the death', () => {
    const dead = play(EMPTY_KERNELS, [
      started(),
      execution('e1', 'import os; os._exit(3)'),
      {
        type: 'kernel.died',
        turn_id: null,
        kernel: 'default',
        execution_id: 'e1',
        exit_code: 3,
        signal: null,
        stderr_tail: '',
        message: 'exited with code 3',
      },
    ]);
    expect(dead.kernels[0]).toMatchObject({ state: 'dead', died: 'exited with code 3', pid: null });
    expect(dead.kernels[0]!.cells[0]).toMatchObject({
      status: 'died',
      failure: { message: 'exited with code 3' },
    });
    const back = play(dead, [{ ...started(), reason: 'after_death' } as NewEvent]);
    expect(back.kernels[0]).toMatchObject({ state: 'idle', died: null, pid: 42 });
  });

  it('keeps kernels apart by name, merges the kernel list and stores variables per kernel', () => {
    let state = play(EMPTY_KERNELS, [execution('a1', 'a = 1', 'a'), execution('b1', 'b = 2', 'b')]);
    expect(state.kernels.map((k) => [k.name, k.cells.map((c) => c.code)])).toEqual([
      ['a', ['a = 1']],
      ['b', ['b = 2']],
    ]);
    state = withKernelInfo(state, [
      { name: 'b', state: 'idle', pid: 7, python: '3.11.2', ipython: true, execution_count: 1 },
      { name: 'c', state: 'not_started', pid: null, python: null, ipython: null, execution_count: 0 },
    ]);
    expect(state.kernels.map((k) => [k.name, k.state])).toEqual([
      ['a', 'busy'],
      ['b', 'idle'],
      ['c', 'not_started'],
    ]);
    state = withVariables(state, 'b', [{ name: 'b', type: 'int', repr: '2' }]);
    expect(state.kernels.find((k) => k.name === 'b')!.variables).toEqual([
      { name: 'b', type: 'int', repr: '2' },
    ]);
    expect(state.kernels.find((k) => k.name === 'a')!.variables).toBeNull();
  });
});
