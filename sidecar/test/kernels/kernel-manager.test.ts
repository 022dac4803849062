import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessGone, waitFor } from '../tools/tool-context';
import { closeTestSessions, FLAVOURS, IPYTHON, mergeRuns, openTestSession, STDLIB } from './kernel-support';

afterEach(closeTestSessions);

describe.each(FLAVOURS)('KernelManager with the $label', (flavour) => {
  it('keeps state between calls and reports each execution as events, in order', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    const first = await kernel.execute('x = 2');
    expect(first.success).toBe(true);
    expect(first.returnValue).toBeNull();

    const code = "import sys\nprint('hi')\nprint('warn', file=sys.stderr, flush=True)\nx * 21";
    const second = await kernel.execute(code);
    expect(second).toMatchObject({
      success: true,
      stdout: 'hi\n',
      stderr: 'warn\n',
      stateLost: null,
      limit: null,
    });
    expect(second.returnValue?.text).toBe('42');

    const started = t.events.ofType('kernel.started');
    expect(started).toEqual([
      expect.objectContaining({
        kernel: 'default',
        reason: 'first_use',
        warm: false,
        ipython: flavour.ipython,
      }),
    ]);
    const ofSecond = t.events.events.filter(
      (e) => 'execution_id' in e && e.execution_id === second.executionId,
    );
    expect(ofSecond[0]).toEqual({
      type: 'kernel.execution_started',
      kernel: 'default',
      execution_id: second.executionId,
      code,
    });
    expect(ofSecond.at(-1)).toMatchObject({
      type: 'kernel.result',
      success: true,
      return_value: { text: '42' },
    });
    const streams = ofSecond.flatMap((e) =>
      e.type === 'kernel.stream' ? [[e.stream, e.text] as [string, string]] : [],
    );
    expect(mergeRuns(streams)).toEqual([
      ['stdout', 'hi\n'],
      ['stderr', 'warn\n'],
    ]);
  });

  it('runs calls one at a time, in the order they came', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    const [first, second] = await Promise.all([
      kernel.execute("import time\ntime.sleep(0.3)\norder = ['first']"),
      kernel.execute("order.append('second')\norder"),
    ]);
    expect(first.success).toBe(true);
    expect(second.returnValue?.text).toBe("['first', 'second']");
  });

  it('keeps two kernels of a session apart', async () => {
    const t = await openTestSession(flavour);
    await t.session.kernel('a').execute('x = 1');
    const inB = await t.session.kernel('b').execute('x');
    expect(inB.error?.type).toBe('NameError');
    expect((await t.session.kernel('a').execute('x')).returnValue?.text).toBe('1');

    const kernels = t.session.list();
    expect(kernels.map((k) => [k.name, k.state, k.executionCount])).toEqual([
      ['a', 'idle', 2],
      ['b', 'idle', 1],
    ]);
    expect(kernels[0]!.pid).not.toBe(kernels[1]!.pid);
  });

  it('restarts a kernel on request: a new process, and the next call says state was lost', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    await kernel.execute('x = 1');
    const oldPid = kernel.info().pid!;
    await kernel.restart();

    expect(kernel.info().pid).not.toBe(oldPid);
    await waitFor(() => isProcessGone(oldPid));
    expect(t.events.ofType('kernel.started').map((e) => e.reason)).toEqual(['first_use', 'restart']);
    const next = await kernel.execute('x');
    expect(next.error?.type).toBe('NameError');
    expect(next.stateLost).toBe('the kernel was restarted');
    expect((await kernel.execute('1')).stateLost).toBeNull();
  });

  it('ends a running cell when its kernel is restarted', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    const running = kernel.execute('import time\nprint("go", flush=True)\ntime.sleep(60)');
    await waitFor(() => t.events.ofType('kernel.stream').length > 0);
    await kernel.restart();
    const result = await running;

    expect(result.error?.type).toBe('KernelRestarted');
    expect(t.events.ofType('kernel.died')).toEqual([]);
    expect((await kernel.execute('1 + 2')).returnValue?.text).toBe('3');
  });

  it('lists and resets variables', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    expect(await kernel.listVariables()).toEqual([]); // not started: nothing to list
    await kernel.execute("y = 'why'\n_private = 1");
    const names = (await kernel.listVariables()).map((v) => v.name);
    expect(names).toContain('y');
    expect(names).not.toContain('_private');
    await kernel.reset();
    expect((await kernel.listVariables()).map((v) => v.name)).not.toContain('y');
  });
});

describe('KernelManager', () => {
  it('writes one audit line per execution', async () => {
    const t = await openTestSession(STDLIB);
    const kernel = t.session.kernel();
    await kernel.execute('1 + 1');
    await kernel.execute('def f(a, b):\n    return a / b\nf(1, 0)');
    await kernel.execute("print('x')");

    const file = path.join(t.kernelsDir, 'default', 'executions.jsonl');
    const lines = (await fs.readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      kernel: 'default',
      code: '1 + 1',
      success: true,
      return_value: '2',
      error: null,
      limits: { active_ms: 120_000, input_idle_ms: 300_000 },
      limit_hit: null,
      state_lost: null,
    });
    expect(Date.parse(lines[0].time)).not.toBeNaN();
    expect(typeof lines[0].duration_ms).toBe('number');
    expect(lines[1]).toMatchObject({
      success: false,
      return_value: null,
      error: { type: 'ZeroDivisionError' },
    });
    expect(lines[1].error.summary).toContain('division by zero');
    expect(lines[2]).toMatchObject({ success: true, stdout: 'x\n' });
  });

  it('says what to install when there is no Python, as an error event and result', async () => {
    const t = await openTestSession({ pythonPath: '/nonexistent/python3', ipython: false });
    const result = await t.session.kernel().execute('1');

    expect(result.success).toBe(false);
    expect(result.error?.type).toBe('PythonNotFound');
    expect(result.error?.message).toContain('/nonexistent/python3');
    expect(t.events.events.map((e) => e.type)).toEqual(['kernel.execution_started', 'kernel.error']);
    expect(t.events.ofType('kernel.error')[0]).toMatchObject({ code: 'python_not_found' });
    expect(existsSync(path.join(t.kernelsDir, 'default', 'executions.jsonl'))).toBe(true);
  });

  it('rejects kernel names that are not plain, and answers for unknown kernels', async () => {
    const t = await openTestSession(STDLIB);
    expect(() => t.session.kernel('../escape')).toThrow(/not a valid kernel name/);
    expect(() => t.session.existing('nobody')).toThrow(/does not exist/);
  });

  it('starts the first kernel cold, then warms a spare that the next kernel and a restart take', async () => {
    const t = await openTestSession(STDLIB, { warm: true });
    expect(t.manager.warmPids()).toEqual([]); // opening a session runs no Python

    const result = await t.session.kernel().execute('1');
    expect(result.success).toBe(true);
    expect(t.events.ofType('kernel.started')[0]).toMatchObject({ warm: false, reason: 'first_use' });
    await waitFor(() => t.manager.warmPids().length === 1);
    const [spare] = t.manager.warmPids();

    await t.session.kernel('second').execute('2');
    expect(t.events.ofType('kernel.started')[1]).toMatchObject({
      kernel: 'second',
      warm: true,
      pid: spare,
      reason: 'first_use',
    });
    await waitFor(() => t.manager.warmPids().length === 1 && t.manager.warmPids()[0] !== spare);
    const [replacement] = t.manager.warmPids();

    await t.session.kernel().restart();
    expect(t.events.ofType('kernel.started')[2]).toMatchObject({
      kernel: 'default',
      warm: true,
      pid: replacement,
      reason: 'restart',
    });
  });

  it('shutting a session down leaves no process: kernels, their children, the warm spare', async () => {
    const t = await openTestSession(STDLIB, { warm: true });
    const a = await t.session.kernel().execute("import subprocess\nsubprocess.Popen(['sleep', '60']).pid");
    await t.session.kernel('b').execute('1');
    const childPid = Number(a.returnValue?.text);
    await waitFor(() => t.manager.warmPids().length === 1);
    const pids = [...t.session.list().map((k) => k.pid!), ...t.manager.warmPids(), childPid];
    expect(pids).toHaveLength(4);
    expect(pids.every((pid) => !isProcessGone(pid))).toBe(true);

    await t.manager.shutdownSession('ses_test');

    await waitFor(() => pids.every(isProcessGone));
    expect(t.manager.warmPids()).toEqual([]);
    expect(t.session.list().map((k) => k.state)).toEqual(['dead', 'dead']);
    const late = await t.session.kernel().execute('1');
    expect(late.error?.type).toBe('KernelShutdown');
  });

  it('ends a running cell when the session shuts down', async () => {
    const t = await openTestSession(STDLIB);
    const running = t.session.kernel().execute('import time\nprint("go", flush=True)\ntime.sleep(60)');
    await waitFor(() => t.events.ofType('kernel.stream').length > 0);
    const pid = t.session.kernel().info().pid!;
    await t.manager.shutdownSession('ses_test');
    const result = await running;
    expect(result.error?.type).toBe('KernelShutdown');
    expect(isProcessGone(pid)).toBe(true);
    expect(t.events.ofType('kernel.died')).toEqual([]);
  });
});

describe.each([
  { ...IPYTHON, label: 'the IPython driver' },
  { ...IPYTHON, ipython: false, label: 'the stdlib driver' },
])('rich output with $label on /usr/bin/python3 (matplotlib)', (flavour) => {
  it.skipIf(!existsSync('/usr/bin/python3'))(
    'saves a figure as a PNG file and names it in the event',
    async () => {
      const t = await openTestSession(flavour);
      const result = await t.session
        .kernel()
        .execute('import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title("kernels")\nNone');

      expect(result.success).toBe(true);
      const displays = t.events.ofType('kernel.display');
      expect(displays).toHaveLength(1);
      const png = displays[0]!.artifacts.find((a) => a.mime === 'image/png')!;
      expect(png.path.startsWith(t.artifactsDir)).toBe(true);
      const bytes = await fs.readFile(png.path);
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(bytes.length).toBe(png.bytes);
      expect(result.displays).toEqual([{ text: displays[0]!.text, artifacts: displays[0]!.artifacts }]);
      expect(JSON.stringify(t.events.events)).not.toContain(bytes.toString('base64').slice(0, 64));
    },
  );

  it('saves the rich forms of the last expression', async () => {
    const t = await openTestSession(flavour);
    const result = await t.session
      .kernel()
      .execute(
        "class Table:\n    def _repr_html_(self):\n        return '<b>rich</b>'\n    def __repr__(self):\n        return 'Table()'\nTable()",
      );

    expect(result.returnValue?.text).toBe('Table()');
    const html = result.returnValue?.artifacts.find((a) => a.mime === 'text/html');
    expect(html).toBeDefined();
    expect(await fs.readFile(html!.path, 'utf8')).toBe('<b>rich</b>');
  });
});
