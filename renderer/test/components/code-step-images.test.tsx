// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, TurnWithDetails } from '../../../sidecar/src/protocol';
import { StepCells } from '../../src/components/code-mode/step-cell';
import { TurnBlock } from '../../src/components/TurnBlock';
import { I18nProvider } from '../../src/i18n/i18n';
import { KernelController } from '../../src/state/kernel-controller';
import { NO_FILE_HISTORY, turnFromHistory } from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';
import { storedToolCall } from '../support/tool-calls';

// A code step shows the images of the cell its call ran, found by the call's id in the kernel events.

const ev = eventMaker('s1');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

function fakeSidecar(history: CairnEvent[]) {
  const fetched: string[] = [];
  const fakeFetch: typeof fetch = async (input) => {
    const path = new URL(String(input)).pathname;
    fetched.push(path);
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
    if (path === '/api/sessions/s1/events') return json({ events: history, has_more: false });
    if (path === '/api/sessions/s1/kernels') return json({ kernels: [] });
    if (path.startsWith('/api/artifacts/'))
      return new Response(PNG, { headers: { 'content-type': 'image/png' } });
    return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no route' } }), {
      status: 404,
    });
  };
  return { fetched, client: new CairnClient({ url: 'http://sidecar.test', token: 't' }, fakeFetch) };
}

const message = (id: number, text: string) => ({
  id,
  turn_id: 't1',
  role: 'assistant' as const,
  content: [{ type: 'text', text }],
  internal: false,
  created_at: '',
});

/** Two steps: c1 plotted (its cell displayed a PNG), c2 only printed. */
function turn(): TurnWithDetails {
  const step = (id: string, messageId: number, code: string) =>
    storedToolCall({
      id,
      tool_use_id: `codestep_${messageId}`,
      name: 'execute_code',
      input: { code },
      status: 'completed',
      preview: '',
      finished_at: '2026-01-01T00:00:02.000Z',
      duration_ms: 30,
    });
  return {
    id: 't1',
    session_id: 's1',
    ordinal: 1,
    request_id: 'r',
    prompt: 'plot it',
    status: 'completed',
    error: null,
    usage: null,
    cost: null,
    ...NO_FILE_HISTORY,
    answer: null,
    continuations: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:05.000Z',
    messages: [message(11, 'Plot.\n<code>\nplt.plot([1, 2])\n'), message(12, 'Print.\n<code>\nprint(1)\n')],
    tool_calls: [step('c1', 11, 'plt.plot([1, 2])\n'), step('c2', 12, 'print(1)\n')],
    questions: [],
    compactions: [],
  };
}

function cell(executionId: string, toolCallId: string, artifacts: { id: string; mime: string }[]) {
  const at = { turn_id: 't1', kernel: 'default', execution_id: executionId };
  return [
    ev({ type: 'kernel.execution_started', ...at, code: 'x', tool_call_id: toolCallId }),
    ev({
      type: 'kernel.display',
      ...at,
      text: '<Figure size 640x480>',
      artifacts: artifacts.map((a) => ({ ...a, bytes: 4 })),
    }),
    ev({
      type: 'kernel.result',
      ...at,
      success: true,
      return_value: null,
      error: null,
      execution_time_ms: 5,
      limit: null,
      state_lost: null,
    }),
  ];
}

async function show(history: CairnEvent[]) {
  const sidecar = fakeSidecar(history);
  const controller = new KernelController(sidecar.client, liveSource(ev), 's1');
  render(
    <I18nProvider locale="en">
      <StepCells.Provider value={controller}>
        <TurnBlock
          view={turnFromHistory(turn())}
          client={sidecar.client}
          onAnswer={async () => undefined}
          onRetry={() => undefined}
          onOpenSettings={() => undefined}
        />
      </StepCells.Provider>
    </I18nProvider>,
  );
  await act(() => controller.start());
  const [plotted, printed] = screen.getAllByRole('region', { name: 'Code step' }) as [
    HTMLElement,
    HTMLElement,
  ];
  return { ...sidecar, plotted, printed };
}

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("a code step's images", () => {
  it('shows the PNG its cell displayed, fetched as the artifact; a step whose cell showed none has no image', async () => {
    const { fetched, plotted, printed } = await show([
      ...cell('e1', 'c1', [{ id: 'art-1', mime: 'image/png' }]),
      ...cell('e2', 'c2', [{ id: 'art-2', mime: 'text/plain' }]),
    ]);
    const img = (await within(plotted).findByAltText('Output image')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(within(plotted).getByText('Images')).toBeTruthy();
    expect(fetched).toContain('/api/artifacts/art-1');
    expect(printed.querySelector('img')).toBeNull();
    expect(within(printed).queryByText('Images')).toBeNull();
    expect(fetched).not.toContain('/api/artifacts/art-2');
  });

  it('shows nothing when no cell ran for the step', async () => {
    const { plotted, printed } = await show([]);
    expect(plotted.querySelector('img')).toBeNull();
    expect(printed.querySelector('img')).toBeNull();
  });
});
