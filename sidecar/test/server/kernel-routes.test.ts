import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Capabilities,
  type KernelExecuteAccepted,
  type KernelList,
  type KernelVariableList,
  Notebook,
} from '../../src/protocol';
import { connectWs, type Harness, startHarness } from '../support/harness';
import {
  HAS_MATPLOTLIB_PYTHON,
  IPYTHON_KERNEL_ENV,
  kernelEvents,
  ofExecution,
  STDLIB_KERNEL_ENV,
  waitForExecutionEnd,
} from '../support/kernel-harness';
import { isProcessGone, waitFor } from '../tools/tool-context';

type ErrorBody = { error: { code: string; message: string } };

describe('kernel routes', () => {
  let h: Harness;
  let sessionId: string;
  beforeAll(async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    ({ sessionId } = await h.newSession());
  });
  afterAll(async () => h?.close());

  const route = (name: string, action: string) => `/api/sessions/${sessionId}/kernels/${name}/${action}`;

  it('says kernels are available', async () => {
    expect((await h.api<Capabilities>('GET', '/api/capabilities')).body.kernels).toBe(true);
  });

  it('runs a cell: 202, then its events stream on the WebSocket in order', async () => {
    const ws = await connectWs(h.server.url);
    ws.send({ type: 'authenticate', token: h.server.token });
    await ws.next((m) => m.type === 'authenticated');
    ws.send({
      type: 'subscribe',
      session_id: sessionId,
      after_seq: h.server.core.store.events.lastSeq(sessionId),
    });
    await ws.next((m) => m.type === 'subscribed');

    expect((await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels).toEqual([]);
    const code = "import sys\nprint('one', flush=True)\nprint('two', file=sys.stderr, flush=True)\n6 * 7";
    const res = await h.api<KernelExecuteAccepted>('POST', route('stream', 'execute'), { code });
    expect(res.status).toBe(202);
    expect(res.body.kernel.name).toBe('stream');
    const result = await ws.next((m) => m.type === 'event' && m.event.type === 'kernel.result');
    ws.socket.close();

    const events = ws.messages.flatMap((m) => (m.type === 'event' ? [m.event] : []));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('kernel.execution_started');
    expect(types).toContain('kernel.started');
    expect(types.at(-1)).toBe('kernel.result');
    expect(types.indexOf('kernel.started')).toBeLessThan(types.indexOf('kernel.stream'));
    const streams = events.flatMap((e) => (e.type === 'kernel.stream' ? [[e.stream, e.text]] : []));
    expect(streams.map(([s]) => s)).toEqual([...streams.map(([s]) => s)].sort().reverse());
    expect(
      streams
        .filter(([s]) => s === 'stdout')
        .map(([, t]) => t)
        .join(''),
    ).toBe('one\n');
    expect(
      streams
        .filter(([s]) => s === 'stderr')
        .map(([, t]) => t)
        .join(''),
    ).toBe('two\n');
    // The user's cell belongs to no turn and no tool call.
    expect(events[0]).toMatchObject({ kernel: 'stream', code, turn_id: null, tool_call_id: null });
    expect(result.type === 'event' && result.event).toMatchObject({
      success: true,
      return_value: { text: '42', artifacts: [] },
      turn_id: null,
    });
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));

    const listed = (await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels;
    expect(listed).toMatchObject([{ name: 'stream', state: 'idle', execution_count: 1, ipython: false }]);
    expect(listed[0]!.pid).toBeGreaterThan(0);
  });

  it('round-trips input() through the input route', async () => {
    await h.api('POST', route('input', 'execute'), { code: "answer = input('Your answer: ')\nanswer * 2" });
    const request = await h.waitForEvent(
      sessionId,
      (e) => e.type === 'kernel.input_request' && e.kernel === 'input',
    );
    if (request.type !== 'kernel.input_request') throw new Error('unreachable');
    expect(request.prompt).toBe('Your answer: ');
    const kernels = (await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels;
    expect(kernels.find((k) => k.name === 'input')?.state).toBe('waiting_input');

    const wrong = await h.api<ErrorBody>('POST', route('input', 'input'), { request_id: 'nope', value: 'x' });
    expect(wrong.status).toBe(404);
    const missing = await h.api<ErrorBody>('POST', route('input', 'input'), {
      request_id: request.request_id,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('value');

    const ok = await h.api('POST', route('input', 'input'), { request_id: request.request_id, value: 'ab' });
    expect(ok.status).toBe(204);
    const end = await h.waitForEvent(
      sessionId,
      (e) => e.type === 'kernel.result' && e.execution_id === request.execution_id,
    );
    expect(end).toMatchObject({ success: true, return_value: { text: "'abab'" } });
  });

  it('interrupts a running cell', async () => {
    expect((await h.api('POST', route('intr', 'execute'), { code: 'y = 1' })).status).toBe(202);
    await h.api('POST', route('intr', 'execute'), {
      code: "import time\nprint('busy', flush=True)\ntime.sleep(120)",
    });
    await h.waitForEvent(sessionId, (e) => e.type === 'kernel.stream' && e.kernel === 'intr');
    const res = await h.api<{ interrupted: boolean }>('POST', route('intr', 'interrupt'));
    expect(res.body).toEqual({ interrupted: true });
    const end = await h.waitForEvent(
      sessionId,
      (e) => e.type === 'kernel.result' && e.kernel === 'intr' && !e.success,
    );
    expect(end.type === 'kernel.result' && end.error?.type).toBe('KeyboardInterrupt');
    // Nothing runs now: a second interrupt has nothing to stop; the state before it is still there.
    expect((await h.api<{ interrupted: boolean }>('POST', route('intr', 'interrupt'))).body).toEqual({
      interrupted: false,
    });
    const vars = await h.api<KernelVariableList>('GET', route('intr', 'variables'));
    expect(vars.body.variables.map((v) => v.name)).toContain('y');
  });

  it('restart starts a fresh process and the state is gone', async () => {
    await h.api('POST', route('rst', 'execute'), { code: 'z = 3' });
    await waitFor(async () =>
      (await kernelEvents(h, sessionId)).some((e) => e.type === 'kernel.result' && e.kernel === 'rst'),
    );
    const before = (await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels.find(
      (k) => k.name === 'rst',
    )!;
    const restarted = await h.api<{ kernel: { pid: number; state: string } }>(
      'POST',
      route('rst', 'restart'),
    );
    expect(restarted.status).toBe(200);
    expect(restarted.body.kernel.state).toBe('idle');
    expect(restarted.body.kernel.pid).not.toBe(before.pid);
    await waitFor(() => isProcessGone(before.pid!));

    await h.api('POST', route('rst', 'execute'), { code: 'z' });
    const end = await h.waitForEvent(
      sessionId,
      (e) => e.type === 'kernel.result' && e.kernel === 'rst' && !e.success,
    );
    expect(end).toMatchObject({ error: { type: 'NameError' }, state_lost: 'the kernel was restarted' });
    const started = (await kernelEvents(h, sessionId)).filter(
      (e) => e.type === 'kernel.started' && e.kernel === 'rst',
    );
    expect(started.map((e) => e.type === 'kernel.started' && e.reason)).toEqual(['first_use', 'restart']);
  });

  it('lists variables with their types', async () => {
    await h.api('POST', route('vars', 'execute'), { code: "count = 5\nlabel = 'hi'\n_hidden = 1" });
    await waitFor(async () =>
      (await kernelEvents(h, sessionId)).some((e) => e.type === 'kernel.result' && e.kernel === 'vars'),
    );
    const res = await h.api<KernelVariableList>('GET', route('vars', 'variables'));
    expect(res.status).toBe(200);
    expect(res.body.variables).toEqual(
      expect.arrayContaining([
        { name: 'count', type: 'int', repr: '5' },
        { name: 'label', type: 'str', repr: "'hi'" },
      ]),
    );
    expect(res.body.variables.map((v) => v.name)).not.toContain('_hidden');
  });

  it('answers at once that variables cannot be listed while a cell runs, and lists them after', async () => {
    await h.api('POST', route('busyvars', 'execute'), { code: 'ready = 1' });
    await waitFor(async () =>
      (await kernelEvents(h, sessionId)).some((e) => e.type === 'kernel.result' && e.kernel === 'busyvars'),
    );
    await h.api('POST', route('busyvars', 'execute'), {
      code: 'import time\nprint("working", flush=True)\ntime.sleep(60)',
    });
    await h.waitForEvent(
      sessionId,
      (e) => e.type === 'kernel.stream' && e.kernel === 'busyvars' && e.text.includes('working'),
    );
    const busy = await h.api<ErrorBody>('GET', route('busyvars', 'variables'));
    expect(busy.status).toBe(409);
    expect(busy.body.error.message).toMatch(/running a cell/);
    await h.api('POST', route('busyvars', 'interrupt'));
    await waitFor(
      async () =>
        (await kernelEvents(h, sessionId)).filter(
          (e) => e.type === 'kernel.result' && e.kernel === 'busyvars',
        ).length === 2,
    );
    const idle = await h.api<KernelVariableList>('GET', route('busyvars', 'variables'));
    expect(idle.body.variables.map((v) => v.name)).toContain('ready');
  });

  it('refuses bad input with clear 4xx errors', async () => {
    const bad = await h.api<ErrorBody>('POST', route('bad%20name', 'execute'), { code: '1' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/kernel name/);
    const noCode = await h.api<ErrorBody>('POST', route('default', 'execute'), {});
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.message).toContain('code');
    const emptyCode = await h.api<ErrorBody>('POST', route('default', 'execute'), { code: '' });
    expect(emptyCode.status).toBe(400);
    const noSession = await h.api<ErrorBody>('POST', '/api/sessions/ses_missing/kernels/default/execute', {
      code: '1',
    });
    expect(noSession.status).toBe(404);
    expect((await h.api('GET', '/api/sessions/ses_missing/kernels')).status).toBe(404);
    // A kernel nobody used has no variables, input, interrupt or restart.
    for (const [method, action] of [
      ['GET', 'variables'],
      ['POST', 'interrupt'],
      ['POST', 'restart'],
      ['GET', 'notebook'],
    ] as const) {
      const res = await h.api<ErrorBody>(method, route('never-used', action));
      expect(res.status, action).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    // Kernels run in a project's folder: a session without one has none.
    const loose = await h.api<{ id: string }>('POST', '/api/sessions', { title: 'no project' });
    const refused = await h.api<ErrorBody>('POST', `/api/sessions/${loose.body.id}/kernels/default/execute`, {
      code: '1',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/no project/);
  });

  it('serves artifacts only by their id, with the token', async () => {
    for (const id of ['art_doesnotexist0000', '..%2F..%2Fcairn.db', 'art_..%2F..%2Fcairn.db', 'cairn.db']) {
      const res = await h.api<ErrorBody>('GET', `/api/artifacts/${id}`);
      expect(res.status, id).toBe(404);
    }
  });
});

describe.runIf(HAS_MATPLOTLIB_PYTHON)('the notebook export', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('is an nbformat 4 notebook with streams, images, results and errors', async () => {
    h = await startHarness({ env: IPYTHON_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    const cells = [
      "print('hello')\n1 + 1",
      "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nprint('plotted')",
      "def f():\n    raise ValueError('bad value')\nf()",
    ];
    for (const code of cells) {
      expect((await h.api('POST', `/api/sessions/${sessionId}/kernels/nb/execute`, { code })).status).toBe(
        202,
      );
    }
    await waitForExecutionEnd(h, sessionId, cells.length);

    const res = await h.api<unknown>('GET', `/api/sessions/${sessionId}/kernels/nb/notebook`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ipynb\+json/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="nb.ipynb"');
    const notebook = Notebook.parse(res.body);
    expect(notebook.nbformat).toBe(4);
    expect(notebook.nbformat_minor).toBeGreaterThanOrEqual(4);
    expect(notebook.metadata).toMatchObject({
      kernelspec: { language: 'python' },
      language_info: { name: 'python' },
    });
    expect(notebook.cells.map((c) => [c.cell_type, c.execution_count, [c.source].flat().join('')])).toEqual(
      cells.map((code, i) => ['code', i + 1, code]),
    );
    expect(new Set(notebook.cells.map((c) => c.id)).size).toBe(cells.length);

    const [first, second, third] = notebook.cells;
    expect(first!.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: ['hello\n'] },
      { output_type: 'execute_result', execution_count: 1, data: { 'text/plain': ['2'] }, metadata: {} },
    ]);
    const display = second!.outputs.find((o) => o.output_type === 'display_data');
    if (display?.output_type !== 'display_data') throw new Error('no display_data output');
    const png = Buffer.from(String(display.data['image/png']), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(second!.outputs).toContainEqual({ output_type: 'stream', name: 'stdout', text: ['plotted\n'] });
    const error = third!.outputs.find((o) => o.output_type === 'error');
    expect(error).toMatchObject({ output_type: 'error', ename: 'ValueError', evalue: 'bad value' });
    expect(error?.output_type === 'error' && error.traceback.join('\n')).toContain('in f');

    // The image in the notebook is the artifact the events named.
    const displayEvent = (await kernelEvents(h, sessionId)).find((e) => e.type === 'kernel.display');
    if (displayEvent?.type !== 'kernel.display') throw new Error('no kernel.display event');
    const artifact = await fetch(`${h.server.url}/api/artifacts/${displayEvent.artifacts[0]!.id}`, {
      headers: { authorization: `Bearer ${h.server.token}` },
    });
    expect(Buffer.from(await artifact.arrayBuffer()).equals(png)).toBe(true);
    expect(ofExecution(await kernelEvents(h, sessionId), displayEvent.execution_id)[0]?.type).toBe(
      'kernel.execution_started',
    );
  });
});

describe('kernel lifecycle', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  async function runningKernelPid(harness: Harness, sessionId: string): Promise<number> {
    await harness.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, { code: 'a = 1' });
    await waitForExecutionEnd(harness, sessionId);
    const kernels = (await harness.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels;
    return kernels[0]!.pid!;
  }

  it('deleting a session kills its kernel processes, a running cell included', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    const pid = await runningKernelPid(h, sessionId);
    await h.api('POST', `/api/sessions/${sessionId}/kernels/other/execute`, {
      code: "import time\nprint('x', flush=True)\ntime.sleep(120)",
    });
    await h.waitForEvent(sessionId, (e) => e.type === 'kernel.stream' && e.kernel === 'other');
    const other = (await h.api<KernelList>('GET', `/api/sessions/${sessionId}/kernels`)).body.kernels.find(
      (k) => k.name === 'other',
    )!;
    expect(isProcessGone(pid)).toBe(false);
    expect(isProcessGone(other.pid!)).toBe(false);
    expect((await h.api('DELETE', `/api/sessions/${sessionId}`)).status).toBe(204);
    await waitFor(() => isProcessGone(pid) && isProcessGone(other.pid!));
    expect((await h.api('GET', `/api/sessions/${sessionId}/kernels`)).status).toBe(404);
  });

  it('deleting a project kills the kernels of its sessions', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { projectId, sessionId } = await h.newSession();
    const pid = await runningKernelPid(h, sessionId);
    expect((await h.api('DELETE', `/api/projects/${projectId}`)).status).toBe(204);
    await waitFor(() => isProcessGone(pid));
  });

  it('stopping the sidecar kills every kernel', async () => {
    h = await startHarness({ env: STDLIB_KERNEL_ENV });
    const { sessionId } = await h.newSession();
    const pid = await runningKernelPid(h, sessionId);
    await h.close();
    h = null;
    await waitFor(() => isProcessGone(pid));
  });

  it('takes the active-time limit from CAIRN_KERNEL_TIMEOUT_MS', async () => {
    h = await startHarness({ env: { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_TIMEOUT_MS: '1500' } });
    const { sessionId } = await h.newSession();
    const res = await h.api('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
      code: 'while True:\n    pass',
    });
    expect(res.status).toBe(202);
    const end = await waitForExecutionEnd(h, sessionId);
    expect(end).toMatchObject({
      type: 'kernel.result',
      success: false,
      limit: { kind: 'active_time', limit_ms: 1500, action: 'interrupted' },
    });
  });

  it('a missing Python is a 503 python_not_found saying what to do', async () => {
    h = await startHarness({ env: { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_PYTHON: '/nonexistent/python3' } });
    const { sessionId } = await h.newSession();
    const res = await h.api<ErrorBody>('POST', `/api/sessions/${sessionId}/kernels/default/execute`, {
      code: '1',
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('python_not_found');
    expect(res.body.error.message).toContain('/nonexistent/python3');
  });

  it('conversation-only mode has no kernels, no kernel tools and no artifacts', async () => {
    h = await startHarness({ env: { CAIRN_CONVERSATION_ONLY: 'true' } });
    expect((await h.api<Capabilities>('GET', '/api/capabilities')).body.kernels).toBe(false);
    expect(() => h!.server.core.services.kernels()).toThrow(/conversation-only/);
    const session = await h.api<{ id: string }>('POST', '/api/sessions', {});
    const id = session.body.id;
    for (const [method, path, body] of [
      ['GET', `/api/sessions/${id}/kernels`, undefined],
      ['POST', `/api/sessions/${id}/kernels/default/execute`, { code: '1' }],
      ['POST', `/api/sessions/${id}/kernels/default/input`, { request_id: 'r', value: '' }],
      ['POST', `/api/sessions/${id}/kernels/default/interrupt`, undefined],
      ['POST', `/api/sessions/${id}/kernels/default/restart`, undefined],
      ['GET', `/api/sessions/${id}/kernels/default/variables`, undefined],
      ['GET', `/api/sessions/${id}/kernels/default/notebook`, undefined],
      ['GET', '/api/artifacts/art_0123456789abcdef', undefined],
    ] as const) {
      const res = await h.api<ErrorBody>(method, path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code, path).toBe('conversation_only');
    }
    h.model.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await h.waitForTurnEnd((await h.startTurn(id, 'hi')).id);
    expect(h.model.requests[0]!.body.tools?.map((t) => t.name)).toEqual([
      'AskUserQuestion',
      'Context',
      'Fork',
      'ToolControl',
    ]);
  });
});
