import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessGone, waitFor } from '../tools/tool-context';
import { closeTestSessions, FLAVOURS, openTestSession, STDLIB } from './kernel-support';

const IGNORES_INTERRUPTS = [
  'import time',
  "print('go', flush=True)",
  'while True:',
  '    try:',
  '        time.sleep(10)',
  '    except KeyboardInterrupt:',
  '        pass',
].join('\n');

afterEach(closeTestSessions);

describe.each(FLAVOURS)('kernel limits and recovery with the $label', (flavour) => {
  it('passes input() to the caller and its answer back', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    const running = kernel.execute("name = input('Who? ')\nname.upper()");
    await waitFor(() => t.events.ofType('kernel.input_request').length === 1);
    expect(kernel.info().state).toBe('waiting_input');
    kernel.reply(t.events.ofType('kernel.input_request')[0]!.request_id, 'ada');
    const result = await running;

    expect(result.success).toBe(true);
    expect(result.returnValue?.text).toBe("'ADA'");
    const request = t.events.ofType('kernel.input_request')[0]!;
    expect(request).toMatchObject({ prompt: 'Who? ', password: false, execution_id: result.executionId });
    expect(() => kernel.reply(request.request_id, 'again')).toThrow(/does not exist/);
  });

  it('interrupts an input() nobody answers after the idle limit, and keeps the variables', async () => {
    const t = await openTestSession(flavour, { limits: { inputIdleMs: 400 } });
    const kernel = t.session.kernel();
    await kernel.execute('kept = 1');
    const result = await kernel.execute("answer = input('never answered')");

    expect(result.success).toBe(false);
    expect(result.limit).toEqual({ kind: 'input_idle', limitMs: 400, action: 'interrupted' });
    expect(result.error?.type).toBe('KeyboardInterrupt');
    expect(result.error?.summary).toContain('waited 0.4 s for an answer');
    const after = await kernel.execute('kept + 1');
    expect(after.returnValue?.text).toBe('2');
    expect(after.stateLost).toBeNull();

    const lines = (await fs.readFile(path.join(t.kernelsDir, 'default', 'executions.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[1]).toMatchObject({
      code: "answer = input('never answered')",
      success: false,
      limit_hit: { kind: 'input_idle', action: 'interrupted' },
      limits: { input_idle_ms: 400 },
    });
  });

  it('does not count time waiting for input() against the active-time limit', async () => {
    const t = await openTestSession(flavour, { limits: { activeMs: 1_500, inputIdleMs: 30_000 } });
    const kernel = t.session.kernel();
    const code = "import time\ntime.sleep(0.3)\nanswer = input('slow user')\ntime.sleep(0.3)\nanswer";
    const running = kernel.execute(code);
    await waitFor(() => t.events.ofType('kernel.input_request').length === 1);
    // Longer than the whole active-time limit, spent waiting for the user.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    kernel.reply(t.events.ofType('kernel.input_request')[0]!.request_id, 'finally');
    const result = await running;

    expect(result.success).toBe(true);
    expect(result.limit).toBeNull();
    expect(result.returnValue?.text).toBe("'finally'");
    expect(result.executionTimeMs).toBeGreaterThanOrEqual(2_000);
    expect(result.activeTimeMs).toBeLessThan(1_500);
  });

  it('interrupts a cell past the active-time limit and keeps the kernel', async () => {
    const t = await openTestSession(flavour, { limits: { activeMs: 1_000 } });
    const kernel = t.session.kernel();
    await kernel.execute('kept = 3');
    const result = await kernel.execute('while True:\n    pass');

    expect(result.success).toBe(false);
    expect(result.limit).toEqual({ kind: 'active_time', limitMs: 1_000, action: 'interrupted' });
    expect(result.error?.type).toBe('KeyboardInterrupt');
    expect(result.error?.summary).toContain('limit of 1 s of active execution time');
    expect(result.kernelExit).toBeNull();
    expect((await kernel.execute('kept')).returnValue?.text).toBe('3');
  });

  it.each([
    ['time.sleep', 'import time\nprint("go", flush=True)\ntime.sleep(30)'],
    ['a busy loop', 'print("go", flush=True)\nwhile True:\n    pass'],
  ])('interrupts %s on request', async (_what, code) => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    expect(kernel.interrupt()).toBe(false); // nothing runs yet
    await kernel.execute('kept = 4');
    const running = kernel.execute(code);
    await waitFor(() => t.events.ofType('kernel.stream').some((e) => e.text.includes('go')));
    expect(kernel.info().state).toBe('busy');
    expect(kernel.interrupt()).toBe(true);
    const result = await running;

    expect(result.error?.type).toBe('KeyboardInterrupt');
    expect(result.limit).toBeNull();
    expect((await kernel.execute('kept')).returnValue?.text).toBe('4');
  });

  it('kills and restarts a kernel whose cell ignores the interrupt, and says state was lost', async () => {
    const t = await openTestSession(flavour, { limits: { activeMs: 1_000, interruptGraceMs: 1_000 } });
    const kernel = t.session.kernel();
    await kernel.execute('kept = 5');
    const firstPid = t.events.ofType('kernel.started')[0]!.pid!;
    const result = await kernel.execute(IGNORES_INTERRUPTS);

    expect(result.success).toBe(false);
    expect(result.limit).toEqual({ kind: 'active_time', limitMs: 1_000, action: 'killed_and_restarted' });
    expect(result.error?.type).toBe('ExecutionTimeLimit');
    expect(result.error?.message).toContain('killed and restarted');
    expect(result.kernelExit).not.toBeNull();
    await waitFor(() => isProcessGone(firstPid));
    await waitFor(() => t.events.ofType('kernel.started').some((e) => e.reason === 'after_limit'));

    const next = await kernel.execute('kept');
    expect(next.error?.type).toBe('NameError');
    expect(next.stateLost).toContain('killed and restarted');
    expect(t.events.ofType('kernel.died')).toEqual([]); // a kill we did is not a crash
  });

  it('recovers from a crash: KernelDied now, a fresh kernel next call that says state was lost', async () => {
    const t = await openTestSession(flavour);
    const kernel = t.session.kernel();
    await kernel.execute('kept = 6');
    // The pause lets the output reach the sidecar: what a cell wrote before the crash is kept.
    const result = await kernel.execute(
      "import os, time\nprint('about to exit', flush=True)\ntime.sleep(0.3)\nos._exit(3)",
    );

    expect(result.success).toBe(false);
    expect(result.error?.type).toBe('KernelDied');
    expect(result.error?.message).toContain('exit code 3');
    expect(result.kernelExit).toMatchObject({ code: 3, signal: null });
    expect(result.stdout).toBe('about to exit\n');
    const died = t.events.ofType('kernel.died');
    expect(died).toEqual([expect.objectContaining({ execution_id: result.executionId, exit_code: 3 })]);
    expect(kernel.info().state).toBe('dead');

    const next = await kernel.execute('1 + 1');
    expect(next.success).toBe(true);
    expect(next.returnValue?.text).toBe('2');
    expect(next.stateLost).toContain('died (exit code 3)');
    expect(t.events.ofType('kernel.started').map((e) => e.reason)).toEqual(['first_use', 'after_death']);
    expect((await kernel.execute('kept')).error?.type).toBe('NameError');
  });
});

describe('kernel recovery, driver-independent cases', () => {
  it('a cell that ignores a user interrupt is killed after the grace period', async () => {
    const t = await openTestSession(STDLIB, { limits: { interruptGraceMs: 800 } });
    const kernel = t.session.kernel();
    const running = kernel.execute(IGNORES_INTERRUPTS);
    await waitFor(() => t.events.ofType('kernel.stream').some((e) => e.text.includes('go')));
    kernel.interrupt();
    const result = await running;

    expect(result.error?.type).toBe('KeyboardInterrupt');
    expect(result.error?.message).toContain('did not stop within 0.8 s');
    expect(result.limit).toBeNull();
    expect((await kernel.execute('1')).stateLost).toContain('killed and restarted');
  });

  it('a kernel killed between calls is reported, and the next call says state was lost', async () => {
    const t = await openTestSession(STDLIB);
    const kernel = t.session.kernel();
    await kernel.execute('kept = 7');
    const pid = kernel.info().pid!;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => t.events.ofType('kernel.died').length === 1);

    expect(t.events.ofType('kernel.died')[0]).toMatchObject({ execution_id: null, signal: 'SIGKILL' });
    const next = await kernel.execute('kept');
    expect(next.error?.type).toBe('NameError');
    expect(next.stateLost).toContain('killed by SIGKILL');
  });

  it('a segfault in a cell is a clear KernelDied naming the signal; the next call starts afresh', async () => {
    const t = await openTestSession(STDLIB);
    const kernel = t.session.kernel();
    await kernel.execute('kept = 8');
    const result = await kernel.execute('import ctypes\nctypes.string_at(0)');

    expect(result.success).toBe(false);
    expect(result.error?.type).toBe('KernelDied');
    expect(result.error?.message).toContain('SIGSEGV');
    // Python's crash trace of the cell's own thread, not of the driver's other threads.
    expect(result.error?.message).toMatch(/File "<cell-\d+>", line 2/);
    expect(result.error?.message).not.toContain('Thread 0x');
    expect(result.kernelExit).toMatchObject({ signal: 'SIGSEGV' });
    expect(t.events.ofType('kernel.died')).toEqual([
      expect.objectContaining({ execution_id: result.executionId, signal: 'SIGSEGV' }),
    ]);
    const next = await kernel.execute('kept');
    expect(next.error?.type).toBe('NameError');
    expect(next.stateLost).toContain('SIGSEGV');
  });

  it('a cancelled call interrupts its cell', async () => {
    const t = await openTestSession(STDLIB);
    const kernel = t.session.kernel();
    const controller = new AbortController();
    const running = kernel.execute('import time\nprint("go", flush=True)\ntime.sleep(30)', {
      signal: controller.signal,
    });
    await waitFor(() => t.events.ofType('kernel.stream').length > 0);
    controller.abort();
    const result = await running;
    expect(result.error?.type).toBe('KeyboardInterrupt');
    expect((await kernel.execute('2')).returnValue?.text).toBe('2');
  });
});
