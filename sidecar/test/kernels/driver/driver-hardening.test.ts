// The driver against cells (and project folders) that try to break it: project files shadowing IPython's
// dependencies, cells that close or redirect fd 1/2, huge values and floods of displays, a replaced
// SIGINT handler, and the IPython-only %matplotlib / exit().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllDrivers, DriverProcess, INTERPRETERS, IPYTHON } from './driver-process';

const folders: string[] = [];
afterEach(async () => {
  await closeAllDrivers();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A project folder holding these files (removed after the test). */
function projectFolder(files: Record<string, string>): string {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kernel-hardening-')));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text);
  return folder;
}

describe.each(INTERPRETERS)('kernel driver hardening: $label', (interpreter) => {
  const start = async () => (await DriverProcess.start(interpreter)).driver;

  it('does not import project files while starting, and still imports them from cells', async () => {
    const cwd = projectFolder({
      'decorator.py': "open('imported-at-start', 'w').write('yes')\n",
      'project_helper.py': 'VALUE = 41\n',
    });
    const { driver, ready } = await DriverProcess.start(interpreter, { cwd });
    expect(ready.ipython).toBe(interpreter.ipython); // IPython's own `decorator` was imported, not ours
    expect(fs.existsSync(path.join(cwd, 'imported-at-start'))).toBe(false);
    const run = await driver.execute('import project_helper\nproject_helper.VALUE + 1');
    expect(run.result.return_value).toEqual({ 'text/plain': '42' });
  });

  it.each([
    {
      what: 'redirects fd 2 to /dev/null',
      code: "import os\nos.dup2(os.open(os.devnull, os.O_WRONLY), 2)\n'done'",
      fd: 2,
    },
    {
      what: 'closes fd 1 and opens a file that takes its number',
      code: "import os\nos.close(1)\nf = open('user.txt', 'w')\nf.write('mine')\nf.flush()\nf.fileno()",
      fd: 1,
    },
  ])('survives a cell that $what: a result, a note, and output again', async ({ code, fd }) => {
    const driver = await start();
    const run = await driver.execute(code);
    expect(run.result.success).toBe(true);
    expect(run.result.return_value?.['text/plain']).toBe(fd === 2 ? "'done'" : '1');
    expect(run.stderr).toContain(`closed or redirected fd ${fd}`);
    const userFile = path.join(driver.cwd, 'user.txt');
    if (fd === 1) expect(fs.readFileSync(userFile, 'utf8')).toBe('mine'); // no sync token in it
    const next = await driver.execute("import sys\nprint('out again')\nprint('err again', file=sys.stderr)");
    expect(next.stdout).toBe('out again\n');
    expect(next.stderr).toBe('err again\n');
    expect(driver.corruptLines).toEqual([]);
  });

  it('truncates a huge value, a huge error message and sends at most 50 displays a cell', async () => {
    const driver = await start();
    const big = await driver.execute("'x' * (5 * 1024 * 1024)");
    const text = big.result.return_value?.['text/plain'] ?? '';
    expect(text.startsWith("'xxxx")).toBe(true);
    expect(text.length).toBeLessThan(1024 * 1024 + 200);
    expect(text).toMatch(/truncated; showing 1048576 of 5242882 characters/);

    const error = await driver.execute("raise ValueError('y' * 100_000)");
    expect(error.result.error?.type).toBe('ValueError');
    expect(error.result.error?.message.length).toBeLessThan(10 * 1024 + 200);
    expect(error.result.error?.message).toMatch(/truncated; showing 10240 of 100000 characters/);

    const flood = await driver.execute('for i in range(60):\n    display(i)');
    expect(flood.displays.map((m) => m.data['text/plain'])).toEqual(
      Array.from({ length: 50 }, (_, i) => String(i)),
    );
    expect(flood.stderr).toContain('more than 50 displays');
    const next = await driver.execute('display(1)');
    expect(next.displays).toHaveLength(1); // the count starts again with each cell
  });

  it('truncates a long input() prompt', async () => {
    const driver = await start();
    const run = driver.start("input('?' * 50_000)");
    const request = await driver.waitFor(
      (m) => m.type === 'input_request' && m.id === run.id,
      'the input request',
    );
    expect(request.type === 'input_request' && request.prompt.length).toBeLessThan(10 * 1024 + 200);
    driver.send({ type: 'interrupt' });
    expect((await run.done).result.error?.type).toBe('KeyboardInterrupt');
  });

  it('interrupts a cell even after an earlier cell ignored SIGINT', async () => {
    const driver = await start();
    await driver.execute('import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nNone');
    const run = driver.start("import time\nprint('sleeping', flush=True)\ntime.sleep(100)");
    await driver.waitForOutput(run.id, 'sleeping');
    driver.interruptGroup();
    expect((await run.done).result.error?.type).toBe('KeyboardInterrupt');
  });
});

describe('kernel driver hardening: IPython only', () => {
  it('warns when IPython is installed but fails to import, and falls back', async () => {
    const shadow = projectFolder({ 'traitlets.py': "raise ImportError('broken traitlets for the test')\n" });
    const { driver, ready } = await DriverProcess.start(IPYTHON, { env: { PYTHONPATH: shadow } });
    expect(ready.ipython).toBe(false);
    const warning = await driver.waitFor(
      (m) => m.type === 'log' && m.level === 'warning' && m.message.includes('IPython is installed'),
      'a warning about IPython',
    );
    expect(warning.type === 'log' && warning.message).toContain('broken traitlets for the test');
  });

  it('accepts %matplotlib inline and still sends figures inline', async () => {
    const { driver } = await DriverProcess.start(IPYTHON);
    const magic = await driver.execute('%matplotlib inline');
    expect(magic.result.error).toBeNull();
    const plot = await driver.execute('import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nNone');
    expect(plot.result.error).toBeNull();
    expect(plot.displays).toHaveLength(1);
    expect(plot.displays[0]?.data['image/png']).toMatch(/^iVBORw0KGgo/); // a PNG
    const backend = await driver.execute('import matplotlib\nmatplotlib.get_backend()');
    expect(backend.result.return_value?.['text/plain']?.toLowerCase()).toBe("'agg'");
  });

  it.each(['exit()', 'quit()'])(
    'treats %s like sys.exit(): an error, and the kernel goes on',
    async (code) => {
      const { driver } = await DriverProcess.start(IPYTHON);
      const run = await driver.execute(`x = 1\n${code}`);
      expect(run.result.error).toMatchObject({ type: 'SystemExit', line: 2 });
      expect((await driver.execute('x + 1')).result.return_value).toEqual({ 'text/plain': '2' });
    },
  );
});
