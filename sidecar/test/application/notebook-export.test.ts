import { describe, expect, it } from 'vitest';
import { buildNotebook } from '../../src/application/kernels/notebook-export';
import { type CairnEvent, Notebook } from '../../src/protocol';

let seq = 0;
function event(fields: Record<string, unknown>): CairnEvent {
  seq += 1;
  return {
    seq,
    session_id: 'ses_1',
    turn_id: null,
    time: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as CairnEvent;
}

describe('buildNotebook', () => {
  it('makes one cell per execution of the kernel, merging stream chunks and keeping outputs in order', () => {
    const events = [
      event({
        type: 'kernel.started',
        kernel: 'k',
        pid: 1,
        python: '3.11.7',
        implementation: 'CPython',
        ipython: false,
        reason: 'first_use',
        warm: true,
      }),
      event({
        type: 'kernel.execution_started',
        kernel: 'k',
        execution_id: 'exe_a',
        code: 'print(1)\nprint(2)',
        tool_call_id: null,
      }),
      event({ type: 'kernel.stream', kernel: 'k', execution_id: 'exe_a', stream: 'stdout', text: '1\n2' }),
      event({ type: 'kernel.stream', kernel: 'k', execution_id: 'exe_a', stream: 'stdout', text: '\n' }),
      event({ type: 'kernel.stream', kernel: 'k', execution_id: 'exe_a', stream: 'stderr', text: 'warn\n' }),
      event({
        type: 'kernel.execution_started',
        kernel: 'other',
        execution_id: 'exe_o',
        code: 'ignored',
        tool_call_id: null,
      }),
      event({ type: 'kernel.stream', kernel: 'k', execution_id: 'exe_a', stream: 'stdout', text: 'after\n' }),
      event({
        type: 'kernel.display',
        kernel: 'k',
        execution_id: 'exe_a',
        text: '<Figure>',
        artifacts: [
          { id: 'art_png', mime: 'image/png', bytes: 3 },
          { id: 'art_gone', mime: 'text/html', bytes: 1 },
          { id: 'art_json', mime: 'application/json', bytes: 7 },
        ],
      }),
      event({
        type: 'kernel.result',
        kernel: 'k',
        execution_id: 'exe_a',
        success: true,
        return_value: null,
        error: null,
        execution_time_ms: 1,
        limit: null,
        state_lost: null,
      }),
      event({
        type: 'kernel.execution_started',
        kernel: 'k',
        execution_id: 'exe_b',
        code: 'x',
        tool_call_id: 'call_1',
      }),
      event({
        type: 'kernel.error',
        kernel: 'k',
        execution_id: 'exe_b',
        code: 'python_not_found',
        message: 'No Python.',
      }),
    ];
    const files: Record<string, { mime: string; data: Buffer }> = {
      art_png: { mime: 'image/png', data: Buffer.from([1, 2, 3]) },
      art_json: { mime: 'application/json', data: Buffer.from('{"a":1}') },
    };
    const notebook = Notebook.parse(buildNotebook(events, 'k', (id) => files[id] ?? null));
    expect(notebook.metadata).toMatchObject({ language_info: { name: 'python', version: '3.11.7' } });
    expect(notebook.cells.map((c) => [c.id, c.execution_count, c.source])).toEqual([
      ['exe_a', 1, ['print(1)\n', 'print(2)']],
      ['exe_b', 2, ['x']],
    ]);
    expect(notebook.cells[0]!.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: ['1\n', '2\n'] },
      { output_type: 'stream', name: 'stderr', text: ['warn\n'] },
      { output_type: 'stream', name: 'stdout', text: ['after\n'] },
      {
        output_type: 'display_data',
        data: { 'text/plain': ['<Figure>'], 'image/png': 'AQID', 'application/json': { a: 1 } },
        metadata: {},
      },
    ]);
    expect(notebook.cells[1]!.outputs).toEqual([
      {
        output_type: 'error',
        ename: 'python_not_found',
        evalue: 'No Python.',
        traceback: ['python_not_found: No Python.'],
      },
    ]);
  });

  it('is an empty notebook for a kernel without executions', () => {
    expect(buildNotebook([], 'k', () => null)).toMatchObject({ nbformat: 4, cells: [] });
  });
});
