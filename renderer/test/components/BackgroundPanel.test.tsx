// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { LoadedTool, Question, ToolCall, ToolCallOutput } from '../../../sidecar/src/protocol';
import { BackgroundPanel } from '../../src/components/background/BackgroundPanel';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { BackgroundController } from '../../src/state/background-controller';
import { WaitingController } from '../../src/state/waiting-controller';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';
import { approvalFor, storedToolCall } from '../support/tool-calls';
import '../support/lazy-bodies';

// The side panel's background tasks against a fake sidecar: listed with their newest output, kept live
// from tool events, cancelled through the API (with a word while it stops, and its error in words), and
// the loaded tools with where they run.

const loaded = (patch: Partial<LoadedTool> = {}): LoadedTool => ({
  name: 'stats',
  description: 'Numbers',
  path: 'tools/stats.py',
  language: 'python',
  mode: 'process',
  methods: [
    { name: 'mean', kind: 'batch', description: 'The mean' },
    { name: 'follow', kind: 'stream', description: 'Follows a file' },
  ],
  state: 'ready',
  error: null,
  pid: 4321,
  loaded_at: '',
  tool_call_id: 'tc_load',
  ...patch,
});

interface Options {
  calls: ToolCall[];
  tools?: LoadedTool[];
  /** The pending questions the sidecar lists. */
  questions?: Question[];
  /** The running turn when the events begin. */
  runningTurn?: string | null;
  /** Calls a read of one call finds besides the listed ones (a script's, not in the background). */
  scriptCalls?: ToolCall[];
  output?: (id: string) => ToolCallOutput;
  /** What a cancel answers; a promise lets the test hold it. */
  cancel?: (id: string) => Promise<Response>;
}

function fakeSidecar(options: Options) {
  const requests: string[] = [];
  const answers: { id: string; body: unknown }[] = [];
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    requests.push(`${method} ${url.pathname}${url.search}`);
    if (url.pathname === '/api/sessions/s/tool-runtime')
      return json({ calls: options.calls, loaded_tools: options.tools ?? [] });
    if (url.pathname === '/api/sessions/s/questions') return json({ questions: options.questions ?? [] });
    const [, , kind, id, action] = url.pathname.split('/');
    const question = options.questions?.find((q) => q.id === id);
    if (kind === 'questions' && action === 'answer') {
      const body = JSON.parse(String(init?.body)) as { answer: string };
      answers.push({ id: id!, body });
      const asked = question ?? approvalFor(storedToolCall({ id: 'tc_any' }), { id: id! });
      return json({ ...asked, status: 'answered', answer: body.answer });
    }
    const called = [...options.calls, ...(options.scriptCalls ?? [])].find((c) => c.id === id);
    if (kind === 'tool-calls' && action === undefined && called) return json({ ...called, result: null });
    if (action === 'output' && options.output) return json(options.output(id!));
    if (action === 'cancel' && options.cancel) return options.cancel(id!);
    return json({ error: { code: 'not_found', message: 'Not here.' } }, 404);
  };
  return {
    requests,
    answers,
    client: new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, fetch),
    json,
  };
}

const controllers: { dispose(): void }[] = [];

function setup(options: Options, locale: Locale = 'en') {
  const sidecar = fakeSidecar(options);
  const source = liveSource(eventMaker('s'));
  const controller = new BackgroundController(sidecar.client, source, 's', 0);
  const waiting = new WaitingController(sidecar.client, source, 's', () => options.runningTurn ?? null);
  controllers.push(controller, waiting);
  void controller.start();
  void waiting.start();
  render(
    <I18nProvider locale={locale}>
      <BackgroundPanel controller={controller} waiting={waiting} />
    </I18nProvider>,
  );
  return { ...sidecar, source };
}

const row = (id: string) => document.querySelector<HTMLElement>(`[data-call-id="${id}"]`);
const status = (id: string) => within(row(id)!).getByTestId('background-status').textContent;
const tail = (id: string) => row(id)?.querySelector('[data-testid="background-tail"]')?.textContent ?? null;

afterEach(() => {
  cleanup();
  for (const controller of controllers.splice(0)) controller.dispose();
});

/** What the output route answers for a running call that has printed nothing yet. */
const noOutputYet = (id: string) => ({
  call_id: id,
  status: 'running' as const,
  pieces: [],
  next_after: null,
  missing: 0,
  running: true,
});

describe('the background tasks section', () => {
  it('lists a running call with its newest output, then live output, and an ended one with its output on demand', async () => {
    const running = storedToolCall({
      id: 'tc1',
      background: true,
      input: { command: 'npm run build' },
      started_at: new Date(Date.now() - 65_000).toISOString(),
    });
    const ended = storedToolCall({
      id: 'tc0',
      background: true,
      status: 'failed',
      is_error: true,
      duration_ms: 1500,
      exit_code: 2,
      finished_at: '2026-01-01T00:00:03.000Z',
    });
    const { requests, source } = setup({
      calls: [running, ended],
      output: (id) => ({
        call_id: id,
        status: 'running',
        pieces: [{ number: 3, text: id === 'tc1' ? 'compiling\n' : 'broke\n' }],
        next_after: 3,
        missing: 3,
        running: id === 'tc1',
      }),
    });
    await waitFor(() => expect(tail('tc1')).toBe('compiling'));
    expect(screen.getByRole('region', { name: 'Background tasks' })).toBeTruthy();
    expect(screen.getByText('1 running')).toBeTruthy();
    const first = row('tc1')!;
    expect(first.getAttribute('aria-label')).toBe('Bash: npm run build');
    expect(status('tc1')).toBe('Running');
    expect(first.textContent).toContain('1 min 5 s');
    expect(first.textContent).toContain('Earlier output is left out');
    // The running call's pieces are read once, without `after`; the ended one's not until asked.
    expect(requests).toContain('GET /api/tool-calls/tc1/output');
    expect(requests).not.toContain('GET /api/tool-calls/tc0/output');

    source.emit({
      type: 'tool.output',
      turn_id: 't1',
      tool_call_id: 'tc1',
      stream: 'stdout',
      text: 'linking\n',
    });
    expect(tail('tc1')).toBe('compiling\nlinking');

    expect(status('tc0')).toBe('Failed');
    expect(row('tc0')!.textContent).toContain('1.5 s');
    expect(row('tc0')!.textContent).toContain('exit code 2');
    expect(within(row('tc0')!).queryByRole('button', { name: 'Cancel' })).toBeNull();
    const details = row('tc0')!.querySelector('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    await waitFor(() => expect(tail('tc0')).toBe('broke'));
  });

  it('adds a call started in the background, shows its progress, and moves it to the ended ones when it ends', async () => {
    const { source } = setup({ calls: [] });
    await screen.findByText(/Nothing runs in the background/);
    source.emit({
      type: 'tool.started',
      turn_id: 't2',
      tool_call_id: 'tc5',
      tool_use_id: 'tu5',
      name: 'Bash',
      input: { command: 'pytest' },
      status: 'running',
      parent_tool_call_id: null,
      background: true,
    });
    expect(status('tc5')).toBe('Running');
    expect(row('tc5')!.textContent).toContain('No output yet');
    source.emit({
      type: 'tool.output',
      turn_id: 't2',
      tool_call_id: 'tc5',
      stream: 'stderr',
      text: '3 passed\n',
    });
    expect(tail('tc5')).toBe('3 passed');
    source.emit({
      type: 'tool.progress',
      turn_id: 't2',
      tool_call_id: 'tc5',
      progress: 3,
      total: 10,
      message: null,
    });
    expect(row('tc5')!.querySelector('[data-testid="tool-progress-badge"]')?.textContent).toBe('3 of 10');
    source.emit({
      type: 'tool.finished',
      turn_id: 't2',
      tool_call_id: 'tc5',
      status: 'completed',
      is_error: false,
      duration_ms: 2000,
      preview: '3 passed',
      exit_code: 0,
      meta: null,
    });
    expect(status('tc5')).toBe('Done');
    expect(row('tc5')!.querySelector('[data-testid="tool-progress-badge"]')).toBeNull();
    expect(screen.getByText('0 running')).toBeTruthy();
  });

  it('cancels through the API, says it is stopping, then shows it cancelled; a failed cancel says why', async () => {
    let answer: (response: Response) => void = () => undefined;
    const call = storedToolCall({ id: 'tc1', background: true });
    const { requests, json } = setup({
      calls: [call, storedToolCall({ id: 'tc2', background: true })],
      output: noOutputYet,
      cancel: (id) =>
        id === 'tc1'
          ? new Promise<Response>((resolve) => {
              answer = resolve;
            })
          : Promise.resolve(json({ error: { code: 'internal', message: 'The process did not stop.' } }, 500)),
    });
    const cancel = await waitFor(() => within(row('tc1')!).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(cancel);
    const stopping = within(row('tc1')!).getByRole('button', { name: 'Stopping…' }) as HTMLButtonElement;
    expect(stopping.disabled).toBe(true);
    expect(within(row('tc1')!).getByRole('status').textContent).toBe('Stopping…');
    expect(requests).toContain('POST /api/tool-calls/tc1/cancel');
    answer(
      json({
        ...call,
        status: 'cancelled',
        is_error: true,
        duration_ms: 800,
        finished_at: '2026-01-01T00:00:04.000Z',
      }),
    );
    await waitFor(() => expect(status('tc1')).toBe('Cancelled'));
    expect(within(row('tc1')!).queryByRole('button')).toBeNull();

    fireEvent.click(within(row('tc2')!).getByRole('button', { name: 'Cancel' }));
    const alert = await waitFor(() => within(row('tc2')!).getByRole('alert'));
    expect(alert.textContent).toBe('Could not cancel it: The process did not stop.');
    expect((within(row('tc2')!).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('lists the loaded tools with their methods and where they run, live from tool.loaded', async () => {
    const { source } = setup({
      calls: [],
      tools: [loaded(), loaded({ name: 'fmt', mode: 'local', pid: null })],
    });
    const stats = await screen.findByRole('listitem', { name: 'stats' });
    expect(stats.textContent).toContain('Runs in a worker process (pid 4321)');
    expect(within(stats).getByTestId('tool-state').textContent).toBe('Ready');
    const methods = within(stats).getByRole('list', { name: 'Methods of stats' });
    expect(methods.textContent).toBe('meanbatchfollowstream');
    expect(screen.getByRole('listitem', { name: 'fmt' }).textContent).toContain('Runs in Cairn');

    source.emit({
      type: 'tool.loaded',
      turn_id: null,
      tool: loaded({ state: 'crashed', error: 'worker exited with code 1', pid: null }),
    });
    const crashed = screen.getByRole('listitem', { name: 'stats' });
    expect(within(crashed).getByTestId('tool-state').textContent).toBe('Crashed');
    expect(crashed.textContent).toContain('Error: worker exited with code 1');
    expect(screen.getAllByRole('listitem', { name: /^(stats|fmt)$/ })).toHaveLength(2);
  });

  it('lists an approval waiting outside the running turn above the calls, answers it, and drops it once answered', async () => {
    const bash = storedToolCall({ id: 'tc1', background: true });
    const write = storedToolCall({
      id: 'tc2',
      name: 'Write',
      input: { file_path: 'a.txt', content: 'hi' },
      status: 'waiting_approval',
      parent_tool_call_id: 'tc1',
    });
    // The running turn's own question stays in the conversation.
    const own: Question = { ...approvalFor(storedToolCall({ id: 'tc9', turn_id: 't2' })), kind: 'question' };
    const { answers, requests, source } = setup({
      calls: [bash],
      scriptCalls: [write],
      questions: [approvalFor(write), own],
      runningTurn: 't2',
      output: noOutputYet,
    });
    const waiting = await screen.findByRole('region', { name: 'Waiting for you' });
    const card = within(waiting).getByRole('region', { name: 'Allow Write?' });
    expect(waiting.querySelectorAll('.question-card')).toHaveLength(1);
    expect(card.textContent).toContain('a.txt');
    expect(screen.getByText('1 waiting for you')).toBeTruthy();
    expect(document.querySelector('details')!.open).toBe(true);
    // Above the calls; the row of the call whose script asks says so (its parent read from the call).
    expect(waiting.compareDocumentPosition(row('tc1')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() =>
      expect(row('tc1')!.textContent).toContain('A call from its script waits for your approval'),
    );
    expect(requests).toContain('GET /api/tool-calls/tc2');

    const allow = await within(card).findByRole('button', { name: 'Allow once' });
    allow.focus();
    expect(document.activeElement).toBe(allow);
    fireEvent.click(allow);
    await waitFor(() => expect(answers).toEqual([{ id: 'q-tc2', body: { answer: 'allow' } }]));
    source.emit({ type: 'question.answered', turn_id: 't1', question_id: 'q-tc2', answer: 'allow' });
    expect(screen.queryByRole('region', { name: 'Waiting for you' })).toBeNull();
    expect(screen.queryByText(/waiting for you/)).toBeNull();
    expect(row('tc1')!.textContent).not.toContain('waits for your approval');

    // Once the turn that asked ends, its question waits here too, until it is closed.
    source.emit({ type: 'turn.completed', turn_id: 't2', usage: null });
    expect(screen.getByRole('region', { name: 'The agent asks' })).toBeTruthy();
    source.emit({
      type: 'question.closed',
      turn_id: 't2',
      question_id: own.id,
      reason: 'The call was stopped.',
    });
    expect(screen.queryByRole('region', { name: 'Waiting for you' })).toBeNull();
  });

  it('opens when a question comes to wait here, and takes a typed answer', async () => {
    const { answers, source } = setup({ calls: [] });
    await screen.findByText(/Nothing runs in the background/);
    const details = document.querySelector('details')!;
    expect(details.open).toBe(false);
    const question = {
      ...approvalFor(storedToolCall({ id: 'tc3' }), { id: 'q7' }),
      kind: 'question' as const,
      question: 'Which port?',
      tool: null,
      options: null,
    };
    source.emit({ type: 'question.required', turn_id: 't1', question });
    expect(details.open).toBe(true);
    const box = within(screen.getByRole('region', { name: 'Waiting for you' })).getByRole('textbox', {
      name: 'Your answer',
    });
    fireEvent.input(box, { target: { value: '8080' } });
    fireEvent.submit(box.closest('form')!);
    await waitFor(() => expect(answers).toEqual([{ id: 'q7', body: { answer: '8080' } }]));
    source.emit({ type: 'question.answered', turn_id: 't1', question_id: 'q7', answer: '8080' });
    expect(screen.queryByRole('region', { name: 'Waiting for you' })).toBeNull();
  });

  it('speaks Chinese', async () => {
    setup({ calls: [], tools: [loaded({ mode: 'local', pid: null })] }, 'zh-CN');
    await screen.findByText('在 Cairn 中运行');
    expect(screen.getByRole('region', { name: '后台任务' })).toBeTruthy();
    expect(screen.getByText('0 个运行中')).toBeTruthy();
  });
});
