// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, TurnWithDetails } from '../../../sidecar/src/protocol';
import { stepReasoning } from '../../src/components/code-mode/step-reasoning';
import { TurnBlock } from '../../src/components/TurnBlock';
import { I18nProvider } from '../../src/i18n/i18n';
import {
  applyEvent,
  NO_FILE_HISTORY,
  type TurnView,
  turnFromHistory,
  turnFromStart,
} from '../../src/state/turn-view';
import '../support/lazy-bodies';
import { codeResult } from '../support/code-result';
import { eventMaker } from '../support/journal-events';
import { storedToolCall } from '../support/tool-calls';

// Code mode: a reply shows its reasoning, the code it ran shows after it as a step with its output, the
// observation sent back stays hidden, and the final answer is the reply.

// Each step's whole result, as execute_code writes it: what the step card reads once it has ended.
const RESULTS: Record<string, string> = {
  c1: JSON.stringify(codeResult({ stdout: '42\n' })),
  c2: JSON.stringify(codeResult()),
  c9: JSON.stringify(
    codeResult({
      success: false,
      error: "FileNotFoundError: No such file or directory: 'missing.txt' (line 1)",
      error_details: {
        type: 'FileNotFoundError',
        message: "No such file or directory: 'missing.txt'",
        line: 1,
        column: null,
        snippet: 'open("missing.txt")',
        pointer: null,
        traceback: "FileNotFoundError: No such file or directory: 'missing.txt'",
      },
    }),
  ),
};

const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, async (input) => {
  const id = String(input).split('/api/tool-calls/')[1] ?? '';
  const result = RESULTS[id];
  if (result === undefined)
    return new Response(JSON.stringify({ error: { code: 'not_found', message: id } }), { status: 404 });
  const call = storedToolCall({ id, name: 'execute_code', input: {}, status: 'completed' });
  return new Response(JSON.stringify({ ...call, result }));
});

function show(view: TurnView) {
  render(
    <I18nProvider locale="en">
      <TurnBlock
        view={view}
        client={client}
        onAnswer={async () => undefined}
        onRetry={() => undefined}
        onOpenSettings={() => undefined}
      />
    </I18nProvider>,
  );
}

const message = (id: number, role: 'user' | 'assistant', text: string, internal = false) => ({
  id,
  turn_id: 't1',
  role,
  content: [{ type: 'text', text }],
  internal,
  created_at: '',
});

function codeTurn(): TurnWithDetails {
  return {
    id: 't1',
    session_id: 's',
    ordinal: 1,
    request_id: 'r',
    prompt: 'what is 6 times 7?',
    status: 'completed',
    error: null,
    usage: null,
    cost: null,
    ...NO_FILE_HISTORY,
    answer: '42',
    continuations: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:05.000Z',
    messages: [
      message(10, 'user', 'what is 6 times 7?'),
      message(11, 'assistant', 'I will multiply them.\n<code>\nprint(6 * 7)\n'),
      message(12, 'user', 'Observation:\n42', true),
      message(13, 'assistant', 'Now the answer.\n```python\nfinal_answer("42")\n```'),
      message(14, 'assistant', 'The answer is 42.'),
    ],
    tool_calls: [
      storedToolCall({
        id: 'c1',
        tool_use_id: 'codestep_11',
        name: 'execute_code',
        input: { code: 'print(6 * 7)\n' },
        status: 'completed',
        preview: RESULTS.c1!.slice(0, 30),
        finished_at: '2026-01-01T00:00:02.000Z',
        duration_ms: 30,
      }),
      storedToolCall({
        id: 'c2',
        tool_use_id: 'codestep_13',
        name: 'execute_code',
        input: { code: 'final_answer("42")\n' },
        status: 'completed',
        preview: RESULTS.c2!.slice(0, 30),
        finished_at: '2026-01-01T00:00:03.000Z',
        duration_ms: 10,
      }),
    ],
    questions: [],
    compactions: [],
  };
}

afterEach(cleanup);

describe('a code-mode turn', () => {
  it('shows each reply as reasoning followed by its step, and the final answer as the reply', async () => {
    show(turnFromHistory(codeTurn()));
    const turn = document.querySelector('.turn') as HTMLElement;
    expect(screen.getByText('I will multiply them.')).toBeTruthy();
    expect(screen.getByText('Now the answer.')).toBeTruthy();
    expect(screen.getByText('The answer is 42.')).toBeTruthy();
    // The code is not left in the reasoning, and the observation is not shown (nor a continuation note).
    expect([...turn.querySelectorAll('pre')].every((pre) => pre.closest('.code-step') !== null)).toBe(true);
    expect(turn.textContent).not.toContain('<code>');
    expect(turn.textContent).not.toContain('Observation:');
    expect(turn.querySelector('.turn-note')).toBeNull();

    const steps = screen.getAllByRole('region', { name: 'Code step' });
    expect(steps).toHaveLength(2);
    const [first, second] = steps as [HTMLElement, HTMLElement];
    await vi.waitFor(() => expect(first.querySelector('.code-view')?.textContent).toContain('print(6 * 7)'));
    await vi.waitFor(() => expect(first.querySelector('.hljs-built_in, .hljs-number')).not.toBeNull());
    // What the cell printed, read from its whole result: never the result's JSON.
    await vi.waitFor(() =>
      expect(first.querySelector('.code-card-stream[data-stream="stdout"] .tool-card-pre')?.textContent).toBe(
        '42',
      ),
    );
    await vi.waitFor(() =>
      expect(second.querySelector('.code-view')?.textContent).toContain('final_answer("42")'),
    );
    await vi.waitFor(() => expect(within(second).getByText('No output')).toBeTruthy());
    expect(turn.textContent).not.toContain('"success"');

    // In order: reasoning, its step, the next reasoning, its step, the answer.
    const text = turn.textContent ?? '';
    const order = [
      'I will multiply them.',
      'print(6 * 7)',
      'Now the answer.',
      'final_answer',
      'The answer is 42.',
    ];
    const at = order.map((part) => text.indexOf(part));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('places a live step after its reply and shows its error', async () => {
    const ev = eventMaker('s');
    const started = ev({ type: 'turn.started', turn_id: 't1', ordinal: 1, prompt: 'go' } as never);
    let view = turnFromStart(started as Extract<CairnEvent, { type: 'turn.started' }>);
    const events = [
      ev({
        type: 'message.completed',
        turn_id: 't1',
        message: message(21, 'assistant', 'Read the file.\n<code>\nopen("missing.txt")'),
        stop_reason: 'stop_sequence',
      } as never),
      ev({
        type: 'tool.started',
        turn_id: 't1',
        tool_call_id: 'c9',
        tool_use_id: 'codestep_21',
        name: 'execute_code',
        input: { code: 'open("missing.txt")' },
        status: 'running',
        parent_tool_call_id: null,
        background: false,
      } as never),
      ev({
        type: 'tool.finished',
        turn_id: 't1',
        tool_call_id: 'c9',
        status: 'failed',
        is_error: true,
        duration_ms: 5,
        preview: RESULTS.c9!.slice(0, 30),
        exit_code: null,
      } as never),
    ];
    for (const event of events) view = applyEvent(view, event);
    show(view);
    expect(screen.getByText('Read the file.')).toBeTruthy();
    const step = screen.getByRole('region', { name: 'Code step' });
    await vi.waitFor(() =>
      expect(step.querySelector('.code-view')?.textContent).toContain('open("missing.txt")'),
    );
    // The error first, as the execute_code card shows one, with its line.
    await vi.waitFor(() =>
      expect(step.querySelector('.code-card-error-type')?.textContent).toBe('FileNotFoundError'),
    );
    expect(step.querySelector('.tool-card-section')?.getAttribute('aria-label')).toBe('Error');
    expect(step.textContent).not.toContain('"success"');
    expect(document.querySelector('.turn')?.textContent).not.toContain('<code>');
  });

  it('leaves a tools-mode reply with a fence as it is', () => {
    const turn = codeTurn();
    turn.tool_calls = [];
    show(turnFromHistory(turn));
    expect(document.querySelector('.turn')?.textContent).toContain('final_answer("42")');
    expect(screen.queryByRole('region', { name: 'Code step' })).toBeNull();
  });
});

describe('stepReasoning', () => {
  it('drops the tags (closed or not) or the last python fence; all-code replies leave nothing', () => {
    expect(stepReasoning('Think.\n<code>\nx = 1\n</code>\nAfter.')).toBe('Think.\n\nAfter.');
    expect(stepReasoning('Think.\n<code>\nx = 1\n')).toBe('Think.');
    expect(stepReasoning('A\n```python\na()\n```\nB\n```python\nb()\n```')).toBe('A\n```python\na()\n```\nB');
    expect(stepReasoning('Open fence\n```py\nb()')).toBe('Open fence');
    expect(stepReasoning('x = 1\nprint(x)')).toBe('');
  });
});
