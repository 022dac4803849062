// The driver while a cell runs and at the end of its life: input() round trips, interrupts (the POSIX
// SIGINT path and the control-message path), shutdown, EOF and a process that exits from a cell.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllDrivers, DriverProcess, INTERPRETERS, type InputRequestMessage } from './driver-process';

afterEach(closeAllDrivers);

const INTERRUPTS = [
  { how: 'SIGINT to the process group', interrupt: (driver: DriverProcess) => driver.interruptGroup() },
  { how: 'the interrupt message', interrupt: (driver: DriverProcess) => driver.send({ type: 'interrupt' }) },
];

describe.each(INTERPRETERS)('kernel driver control: $label', (interpreter) => {
  const start = async () => (await DriverProcess.start(interpreter)).driver;
  const inputRequest = (driver: DriverProcess, id: string) =>
    driver.waitFor(
      (m): m is InputRequestMessage => m.type === 'input_request' && m.id === id,
      `an input request from ${id}`,
    );

  it('input() asks the host and returns the reply; output printed before it arrives first', async () => {
    const driver = await start();
    const run = driver.start("print('before')\nname = input('Name? ')\nprint('hello', name)\nname");
    const request = await inputRequest(driver, run.id);
    expect(request).toMatchObject({ prompt: 'Name? ', password: false });
    expect(driver.messagesOf(run.id).map((m) => m.type)).toEqual(['stream', 'input_request']);
    driver.send({ type: 'input_reply', request_id: request.request_id, value: 'Ada' });
    const done = await run.done;
    expect(done.result.return_value).toEqual({ 'text/plain': "'Ada'" });
    expect(done.stdout).toBe('before\nhello Ada\n');
  });

  it('getpass() asks for a password the same way', async () => {
    const driver = await start();
    const run = driver.start('import getpass\nsecret = getpass.getpass()\nlen(secret)');
    const request = await inputRequest(driver, run.id);
    expect(request).toMatchObject({ prompt: 'Password: ', password: true });
    driver.send({ type: 'input_reply', request_id: 'not-this-one', value: 'wrong' }); // ignored: not waiting
    driver.send({ type: 'input_reply', request_id: request.request_id, value: 'hunter2' });
    expect((await run.done).result.return_value).toEqual({ 'text/plain': '7' });
    expect(driver.messages.some((m) => m.type === 'log' && m.message.includes('not-this-one'))).toBe(true);
  });

  it.each(INTERRUPTS)(
    '$how interrupts a cell waiting for input() with KeyboardInterrupt',
    async ({ interrupt }) => {
      const driver = await start();
      const run = driver.start("kept = 'yes'\nanswer = input('Waiting: ')");
      await inputRequest(driver, run.id);
      interrupt(driver);
      const { result } = await run.done;
      expect(result.error).toMatchObject({ type: 'KeyboardInterrupt', message: 'interrupted', line: 2 });
      expect((await driver.execute('kept')).result.return_value).toEqual({ 'text/plain': "'yes'" });
    },
  );

  describe.each(INTERRUPTS)('$how', ({ interrupt }) => {
    it.each([
      { what: 'time.sleep(100)', code: 'import time\ntime.sleep(100)' },
      { what: 'a pure-Python busy loop', code: 'while True:\n    pass' },
    ])('interrupts $what with KeyboardInterrupt, keeping the variables', async ({ code }) => {
      const driver = await start();
      await driver.execute("kept = 'yes'");
      const run = driver.start(`print('running')\n${code}`);
      await driver.waitForOutput(run.id, 'running');
      interrupt(driver);
      const { result } = await run.done;
      expect(result.success).toBe(false);
      expect(result.error).toMatchObject({ type: 'KeyboardInterrupt', message: 'interrupted' });
      expect(result.error!.summary).toMatch(/^KeyboardInterrupt at line \d+: interrupted/);
      expect((await driver.execute('kept')).result.return_value).toEqual({ 'text/plain': "'yes'" });
    });

    it('does nothing while the kernel is idle', async () => {
      const driver = await start();
      await driver.execute('x = 1');
      interrupt(driver);
      interrupt(driver);
      expect((await driver.execute('x + 1')).result.return_value).toEqual({ 'text/plain': '2' });
      expect(driver.messages.filter((m) => m.type === 'log')).toEqual([]);
    });
  });

  it('exits 0 on shutdown, even while a cell runs', async () => {
    const driver = await start();
    const run = driver.start("print('running')\nimport time\ntime.sleep(100)");
    await driver.waitForOutput(run.id, 'running');
    driver.send({ type: 'shutdown' });
    expect(await driver.exited).toEqual({ code: 0, signal: null });
  });

  it('exits when the host closes its stdin, taking along the processes its cells started', async () => {
    const driver = await start();
    // A host that dies without stopping the kernel: only the end of the channel tells the driver.
    const run = await driver.execute(
      "import subprocess\nchild = subprocess.Popen(['sleep', '300'])\nchild.pid",
    );
    const childPid = Number(run.result.return_value?.['text/plain']);
    expect(isRunning(childPid)).toBe(true);
    driver.closeStdin();
    // The driver kills its own process group (it leads it), itself included.
    expect(await driver.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const deadline = Date.now() + 10_000;
    while (isRunning(childPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(isRunning(childPid)).toBe(false);
  });

  it('lets a cell end the process with os._exit, which the host sees as the exit code', async () => {
    const driver = await start();
    const run = driver.start("print('bye')\nimport os\nos._exit(3)");
    expect(await driver.exited).toEqual({ code: 3, signal: null });
    expect(driver.messages.some((m) => m.type === 'result' && m.id === run.id)).toBe(false);
  });
});

/** Whether a process with that pid exists and is not a zombie (a killed child waits to be reaped by init). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): kill(pid, 0) is all there is
  }
}
