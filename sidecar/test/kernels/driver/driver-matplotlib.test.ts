// Plots inline: matplotlib figures arrive as PNG displays without plt.show(), on the Agg backend.
// Runs on Debian's Python, which has matplotlib, with and without IPython.
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllDrivers, DEBIAN_STDLIB, DriverProcess, IPYTHON } from './driver-process';

afterEach(closeAllDrivers);

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

function isPng(base64: string | undefined): boolean {
  const bytes = Buffer.from(base64 ?? '', 'base64');
  return bytes.length > 1000 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

describe.each([DEBIAN_STDLIB, IPYTHON])('kernel driver matplotlib: $label', (interpreter) => {
  it('sends a figure made without show() as a PNG after the text printed before it, then closes it', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [4, 1, 9])\nplt.title('no show needed')\nprint('drawn')",
    );
    expect(run.result.success).toBe(true);
    expect(run.displays).toHaveLength(1);
    expect(isPng(run.displays[0]!.data['image/png'])).toBe(true);
    expect(run.displays[0]!.data['text/plain']).toMatch(/Figure/);
    expect(run.messages.map((m) => m.type)).toEqual(['stream', 'display', 'result']);
    expect((await driver.execute('plt.get_fignums()')).result.return_value).toEqual({ 'text/plain': '[]' });
    expect((await driver.execute('None')).displays).toEqual([]);
  });

  it('makes plt.show() send the figures at that point, without a non-GUI backend warning', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nprint('between')\nplt.figure()\nplt.plot([2, 1])",
    );
    expect(run.messages.map((m) => m.type)).toEqual(['display', 'stream', 'display', 'result']);
    expect(run.displays.every((d) => isPng(d.data['image/png']))).toBe(true);
    expect(run.stderr).toBe('');
  });

  it('uses Agg even when the environment asks for a GUI backend', async () => {
    const { driver } = await DriverProcess.start(interpreter, { env: { MPLBACKEND: 'TkAgg' } });
    const run = await driver.execute(
      'import matplotlib.pyplot as plt\nimport matplotlib\nmatplotlib.get_backend()',
    );
    expect(run.result.return_value).toEqual({ 'text/plain': "'agg'" });
  });

  it('still shows the figures of a cell that failed', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nraise ValueError('after plotting')",
    );
    expect(run.result.error).toMatchObject({ type: 'ValueError', line: 3 });
    expect(run.displays).toHaveLength(1);
    expect(isPng(run.displays[0]!.data['image/png'])).toBe(true);
  });
});
