// @vitest-environment happy-dom
import '../support/zh-CN';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, KernelInfo } from '../../../sidecar/src/protocol';
import { KernelPanel } from '../../src/components/kernel/KernelPanel';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { KernelController } from '../../src/state/kernel-controller';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';

const ev = eventMaker('s1');

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A sidecar stand-in at the fetch level: the client's own parsing and validation run for real. */
function fakeSidecar(history: CairnEvent[], kernels: KernelInfo[]) {
  const calls: Call[] = [];
  let variablesAnswer = [{ name: 'x', type: 'int', repr: '1' }];
  const fakeFetch: typeof fetch = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({
      method,
      url,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    const path = new URL(url).pathname;
    if (path === '/api/sessions/s1/events') return json({ events: history, has_more: false });
    if (path === '/api/sessions/s1/kernels') return json({ kernels });
    if (path.endsWith('/variables')) return json({ variables: variablesAnswer });
    if (path.endsWith('/execute')) return json({ kernel: kernels[0] }, 202);
    if (path.endsWith('/input')) return new Response(null, { status: 204 });
    if (path.endsWith('/interrupt')) return json({ interrupted: true });
    if (path.endsWith('/notebook')) return new Response('{"nbformat":4}', { status: 200 });
    if (path.startsWith('/api/artifacts/'))
      return new Response(PNG, { headers: { 'content-type': 'image/png' } });
    return json({ error: { code: 'not_found', message: 'no route' } }, 404);
  };
  return {
    calls,
    client: new CairnClient({ url: 'http://sidecar.test', token: 'secret-token' }, fakeFetch),
    setVariables(next: typeof variablesAnswer) {
      variablesAnswer = next;
    },
  };
}

const idle: KernelInfo = {
  name: 'default',
  state: 'idle',
  pid: 9,
  python: '3.11.2',
  ipython: false,
  execution_count: 1,
};

function historyOfOneCell(): CairnEvent[] {
  return [
    ev({ type: 'turn.started', turn_id: 't1', ordinal: 1, prompt: 'plot' }),
    ev({
      type: 'kernel.execution_started',
      turn_id: 't1',
      kernel: 'default',
      execution_id: 'e1',
      code: "print('hi'); 1+1",
      tool_call_id: 'tc1',
    }),
    ev({
      type: 'kernel.stream',
      turn_id: 't1',
      kernel: 'default',
      execution_id: 'e1',
      stream: 'stdout',
      text: 'hi\n',
    }),
    ev({
      type: 'kernel.display',
      turn_id: 't1',
      kernel: 'default',
      execution_id: 'e1',
      text: '<Figure size 640x480>',
      artifacts: [{ id: 'art-1', mime: 'image/png', bytes: 4 }],
    }),
    ev({
      type: 'kernel.result',
      turn_id: 't1',
      kernel: 'default',
      execution_id: 'e1',
      success: true,
      return_value: { text: '2', artifacts: [] },
      error: null,
      execution_time_ms: 5,
      limit: null,
      state_lost: null,
    }),
  ];
}

async function mount(options: { locale?: Locale; history?: CairnEvent[] } = {}) {
  const sidecar = fakeSidecar(options.history ?? historyOfOneCell(), [idle]);
  const source = liveSource(ev);
  const controller = new KernelController(sidecar.client, source, 's1');
  const view = render(
    <I18nProvider locale={options.locale ?? 'en'}>
      <KernelPanel client={sidecar.client} controller={controller} />
    </I18nProvider>,
  );
  await act(() => controller.start());
  return { ...sidecar, source, controller, view };
}

let created: string[] = [];
let revoked: string[] = [];
beforeEach(() => {
  created = [];
  revoked = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:test/${created.length + 1}`;
    created.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => {
    revoked.push(url);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the kernel panel', () => {
  it("shows the agent's cell from the journal: code, stdout, image from memory, value, variables", async () => {
    const { calls, view } = await mount();
    expect(screen.getByText("print('hi'); 1+1")).toBeTruthy();
    expect(screen.getByText('Agent')).toBeTruthy();
    expect(screen.getByText('hi')).toBeTruthy();
    expect(screen.getByTestId('kernel-result').textContent).toBe('2');
    const img = (await screen.findByAltText('Output image')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:test/1');
    const artifactCall = calls.find((c) => c.url.includes('/api/artifacts/art-1'))!;
    expect(artifactCall.headers.authorization).toBe('Bearer secret-token');
    expect(calls.every((c) => !c.url.includes('secret-token'))).toBe(true);
    await screen.findByText('x');
    expect(screen.getByTestId('kernel-state').textContent).toBe('idle');
    // Leaving the screen releases the image's memory.
    view.unmount();
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('runs the user cell on Ctrl+Enter through the execute route, and streams its live output', async () => {
    const { calls, source } = await mount({ history: [] });
    expect(screen.getByText('No kernel has run yet. Run a cell below to start one.')).toBeTruthy();
    const editor = screen.getByLabelText('Code to run in default') as HTMLTextAreaElement;
    fireEvent.input(editor, { target: { value: 'x = 41\nx + 1' } });
    fireEvent.keyDown(editor, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/kernels/default/execute'))).toBe(true));
    const execute = calls.find((c) => c.url.endsWith('/execute'))!;
    expect(execute).toMatchObject({ method: 'POST', body: { code: 'x = 41\nx + 1' } });
    await waitFor(() => expect(editor.value).toBe(''));

    source.emit({
      type: 'kernel.execution_started',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      code: 'x = 41\nx + 1',
      tool_call_id: null,
    });
    source.emit({
      type: 'kernel.stream',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      stream: 'stderr',
      text: '\x1b[31mred\x1b[0m',
    });
    expect(screen.getByText('You')).toBeTruthy();
    expect(screen.getByText('red').className).toContain('ansi-red-fg');
    expect(screen.getByTestId('kernel-state').textContent).toBe('busy');

    const before = calls.filter((c) => c.url.endsWith('/variables')).length;
    source.emit({
      type: 'kernel.result',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      success: true,
      return_value: { text: '42', artifacts: [] },
      error: null,
      execution_time_ms: 1,
      limit: null,
      state_lost: null,
    });
    expect(screen.getByTestId('kernel-result').textContent).toBe('42');
    // The variable list is asked again after each result.
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/variables')).length).toBe(before + 1));
  });

  it('asks for input with the prompt (a password field for getpass) and replies through the input route', async () => {
    const { calls, source } = await mount({ history: [] });
    source.emit({
      type: 'kernel.execution_started',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      code: 'getpass()',
      tool_call_id: null,
    });
    source.emit({
      type: 'kernel.input_request',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      request_id: 'req-7',
      prompt: 'Password: ',
      password: true,
    });
    expect(screen.getByText('Password:')).toBeTruthy();
    const field = screen.getByLabelText('Input for the running cell') as HTMLInputElement;
    expect(field.type).toBe('password');
    fireEvent.input(field, { target: { value: 'hunter2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/input'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/input'))!.body).toEqual({
      request_id: 'req-7',
      value: 'hunter2',
    });

    // Interrupt is live while the cell runs.
    fireEvent.click(screen.getByRole('button', { name: 'Interrupt' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/kernels/default/interrupt'))).toBe(true));
  });

  it('shows an error summary with its traceback', async () => {
    const { source } = await mount({ history: [] });
    source.emit({
      type: 'kernel.execution_started',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      code: '1/0',
      tool_call_id: null,
    });
    source.emit({
      type: 'kernel.result',
      turn_id: null,
      kernel: 'default',
      execution_id: 'u1',
      success: false,
      return_value: null,
      error: {
        type: 'ZeroDivisionError',
        message: 'division by zero',
        line: 1,
        column: null,
        snippet: '1/0',
        pointer: null,
        summary: 'ZeroDivisionError: division by zero at line 1',
        traceback: ['Cell line 1', 'ZeroDivisionError: division by zero'],
      },
      execution_time_ms: 1,
      limit: null,
      state_lost: null,
    });
    expect(screen.getByText('ZeroDivisionError: division by zero at line 1')).toBeTruthy();
    expect(screen.getByText('Traceback')).toBeTruthy();
    expect(screen.getByTestId('kernel-cell').getAttribute('data-status')).toBe('failed');
  });

  it('exports the notebook as a download from memory, with the token in a header only', async () => {
    const { calls } = await mount();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.href}`);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Export notebook' }));
    await waitFor(() => expect(clicked.length).toBe(1));
    const call = calls.find((c) => c.url.endsWith('/kernels/default/notebook'))!;
    expect(call.headers.authorization).toBe('Bearer secret-token');
    expect(clicked[0]).toMatch(/^default\.ipynb blob:test\/\d+$/);
  });

  it('speaks Chinese', async () => {
    await mount({ locale: 'zh-CN' });
    expect(screen.getByRole('button', { name: '导出笔记本' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '中断' })).toBeTruthy();
    expect(screen.getByText('智能体')).toBeTruthy();
    expect(screen.getByTestId('kernel-state').textContent).toBe('空闲');
  });
});
