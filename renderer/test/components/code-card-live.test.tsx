// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { StepCells } from '../../src/components/code-mode/step-cell';
import { ToolCard } from '../../src/components/ToolCard';
import { I18nProvider } from '../../src/i18n/i18n';
import { KernelController } from '../../src/state/kernel-controller';
import { newCard } from '../../src/state/tool-items';
import '../support/lazy-bodies';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';

// A running execute_code call journals its cell's output as `kernel.*` events and no `tool.output`
// (sidecar/src/tools/builtin/execute-code.ts), so the card's own `output` stays empty: the card reads the
// cell from the kernel state, as the kernel panel does.

const ev = eventMaker('s1');

function fakeClient() {
  const fakeFetch: typeof fetch = async (input) => {
    const path = new URL(String(input)).pathname;
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
    if (path === '/api/sessions/s1/events') return json({ events: [], has_more: false });
    if (path === '/api/sessions/s1/kernels') return json({ kernels: [] });
    return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no route' } }), {
      status: 404,
    });
  };
  return new CairnClient({ url: 'http://sidecar.test', token: 't' }, fakeFetch);
}

afterEach(cleanup);

it("shows a running cell's stdout and stderr from its kernel events while the call runs", async () => {
  const client = fakeClient();
  const source = liveSource(ev);
  const controller = new KernelController(client, source, 's1');
  const card = {
    ...newCard('tu1', 'execute_code', { code: 'for i in range(3): print("step", i)' }),
    status: 'running' as const,
    toolCallId: 'tc1',
    startedAt: Date.now(),
  };
  const { container } = render(
    <I18nProvider locale="en">
      <StepCells.Provider value={controller}>
        <ToolCard card={card} client={client} />
      </StepCells.Provider>
    </I18nProvider>,
  );
  await act(() => controller.start());
  fireEvent.click(screen.getAllByRole('button')[0]!);
  expect(await screen.findByText('No output yet')).toBeTruthy();

  const at = { turn_id: 't1', kernel: 'default', execution_id: 'x1' };
  source.emit({ type: 'kernel.execution_started', ...at, code: 'x', tool_call_id: 'tc1' });
  source.emit({ type: 'kernel.stream', ...at, stream: 'stdout', text: 'step 0\n' });
  source.emit({ type: 'kernel.stream', ...at, stream: 'stdout', text: 'step 1\n' });
  source.emit({ type: 'kernel.stream', ...at, stream: 'stderr', text: 'warning: slow\n' });
  // Another call's cell is not this card's.
  source.emit({
    type: 'kernel.execution_started',
    ...at,
    execution_id: 'x2',
    code: 'y',
    tool_call_id: 'tc2',
  });
  source.emit({ type: 'kernel.stream', ...at, execution_id: 'x2', stream: 'stdout', text: 'other\n' });

  await waitFor(() => {
    expect(container.querySelector('[data-stream="stdout"]')?.textContent).toContain('step 0\nstep 1');
  });
  expect(container.querySelector('[data-stream="stderr"]')?.textContent).toContain('warning: slow');
  expect(container.textContent).not.toContain('other');
  expect(container.textContent).not.toContain('No output yet');
});
