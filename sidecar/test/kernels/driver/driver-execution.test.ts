// What a cell does in the driver: persistent state, last-expression values, rich output, structured
// errors, reset and list_variables, and the busy safety net.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllDrivers, DriverProcess, INTERPRETERS, type Variable } from './driver-process';

afterEach(closeAllDrivers);

const FAKE_PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not really a png')]);
const RICH_CLASS = [
  'class Rich:',
  "    def __repr__(self): return 'Rich()'",
  "    def _repr_html_(self): return '<b>rich</b>'",
  "    def _repr_markdown_(self): return '**rich**'",
  `    def _repr_png_(self): return bytes.fromhex('${FAKE_PNG.toString('hex')}')`,
].join('\n');

describe.each(INTERPRETERS)('kernel driver execution: $label', (interpreter) => {
  const start = async () => (await DriverProcess.start(interpreter)).driver;
  const atLeast311 = async (driver: DriverProcess) =>
    (await driver.execute('import sys\nsys.version_info >= (3, 11)')).result.return_value?.['text/plain'] ===
    'True';

  it('keeps variables between executions and returns the last expression like Jupyter', async () => {
    const driver = await start();
    const assign = await driver.execute('x = 41');
    expect(assign.result).toMatchObject({ success: true, return_value: null, error: null });
    expect(assign.result.execution_time_ms).toBeGreaterThanOrEqual(0);
    const value = await driver.execute('x + 1');
    expect(value.result.return_value).toEqual({ 'text/plain': '42' });
    expect(value.messages.map((m) => m.type)).toEqual(['result']); // no Out[...] printed by IPython
    expect((await driver.execute("'te' + 'xt'")).result.return_value).toEqual({ 'text/plain': "'text'" });
    expect((await driver.execute('None')).result).toMatchObject({ success: true, return_value: null });
    expect((await driver.execute("print('printed')")).result.return_value).toBeNull();
    expect((await driver.execute('x + 1;')).result.return_value).toBeNull(); // a trailing ';' hides it
    expect((await driver.execute('def f(n):\n    return n * 2\nf(x)')).result.return_value).toEqual({
      'text/plain': '82',
    });
  });

  it('runs top-level await', async () => {
    const driver = await start();
    const run = await driver.execute('import asyncio\nawait asyncio.sleep(0.01)\n40 + 2');
    expect(run.result.return_value).toEqual({ 'text/plain': '42' });
    expect((await driver.execute('await asyncio.sleep(0, result=7)')).result.return_value).toEqual({
      'text/plain': '7',
    });
  });

  it('returns the rich forms an object offers, and sends display() output as display messages', async () => {
    const driver = await start();
    const value = await driver.execute(`${RICH_CLASS}\nRich()`);
    const bundle = value.result.return_value!;
    expect(bundle).toMatchObject({
      'text/plain': 'Rich()',
      'text/html': '<b>rich</b>',
      'text/markdown': '**rich**',
    });
    expect(Buffer.from(bundle['image/png']!, 'base64').equals(FAKE_PNG)).toBe(true);
    const shown = await driver.execute("print('before')\ndisplay(Rich())\nprint('after')");
    expect(shown.displays).toHaveLength(1);
    expect(shown.displays[0]!.data).toMatchObject({ 'text/plain': 'Rich()', 'text/html': '<b>rich</b>' });
    expect(shown.messages.map((m) => m.type)).toEqual(['stream', 'display', 'stream', 'result']);
  });

  it('describes a syntax error: line, column, snippet, pointer and a summary', async () => {
    const driver = await start();
    const { result } = await driver.execute('x = 1\nif x > 0\n    print(x)');
    expect(result.success).toBe(false);
    const error = result.error!;
    expect(error).toMatchObject({
      type: 'SyntaxError',
      line: 2,
      column: 9,
      snippet: 'if x > 0',
      pointer: '        ^',
    });
    expect(error.message).toMatch(/expected ':'|invalid syntax/);
    expect(error.summary).toBe(`SyntaxError at line 2, column 9: ${error.message}`);
    expect(error.traceback).toEqual(['  File "<cell>", line 2\n    if x > 0\n            ^']);
  });

  it('describes a runtime error in a nested call with the user frames only', async () => {
    const driver = await start();
    const { result } = await driver.execute(
      'def f(a, b):\n    return a / b\n\ndef g(x):\n    return f(x, 0)\n\ng(1)',
    );
    const error = result.error!;
    expect(error).toMatchObject({
      type: 'ZeroDivisionError',
      message: 'division by zero',
      line: 2,
      snippet: '    return a / b',
      summary: 'ZeroDivisionError at line 2 in f: division by zero',
      traceback: [
        '  File "<cell>", line 7, in <module>\n    g(1)',
        '  File "<cell>", line 5, in g\n    return f(x, 0)',
        '  File "<cell>", line 2, in f\n    return a / b',
      ],
    });
    // Python 3.11+ records which expression failed; older versions do not.
    const positions = (await atLeast311(driver))
      ? { column: 12, pointer: '           ^^^^^' }
      : { column: null, pointer: null };
    expect(error).toMatchObject(positions);
  });

  it("shows an imported user module's frames, and leaves out library frames", async () => {
    const driver = await start();
    fs.writeFileSync(
      path.join(driver.cwd, 'helper_mod.py'),
      "def check(value):\n    if value > 2:\n        raise ValueError(f'value {value} is too big')\n    return value\n\n\ndef outer(value):\n    return check(value)\n",
    );
    const fromModule = (await driver.execute('import helper_mod\nhelper_mod.outer(3)')).result.error!;
    expect(fromModule).toMatchObject({ type: 'ValueError', line: 2, snippet: 'helper_mod.outer(3)' });
    expect(fromModule.traceback).toEqual([
      '  File "<cell>", line 2, in <module>\n    helper_mod.outer(3)',
      '  File "helper_mod.py", line 8, in outer\n    return check(value)',
      '  File "helper_mod.py", line 3, in check\n    raise ValueError(f\'value {value} is too big\')',
    ]);
    expect(fromModule.summary).toBe(
      "ValueError at line 2: value 3 is too big (raised by check in helper_mod.py line 3: raise ValueError(f'value {value} is too big'))",
    );
    const fromLibrary = (await driver.execute("import json\njson.loads('{')")).result.error!;
    expect(fromLibrary.type).toBe('JSONDecodeError');
    expect(fromLibrary.traceback).toEqual(['  File "<cell>", line 2, in <module>\n    json.loads(\'{\')']);
    expect(fromLibrary.summary).toMatch(/^JSONDecodeError at line 2: Expecting property name/);
  });

  it('points at the current cell and names the earlier cell where a called function failed', async () => {
    const driver = await start();
    await driver.execute("def boom():\n    raise RuntimeError('boom')");
    const error = (await driver.execute('y = 1\nboom()')).result.error!;
    expect(error).toMatchObject({ type: 'RuntimeError', line: 2, snippet: 'boom()' });
    expect(error.summary).toBe(
      "RuntimeError at line 2: boom (raised by boom in an earlier cell line 2: raise RuntimeError('boom'))",
    );
    expect(error.traceback.every((entry) => entry.startsWith('  File "<cell>"'))).toBe(true);
    expect(error.traceback.join('\n')).not.toMatch(/cairn_kernel|interactiveshell|ipython-input|cell-\d/);
  });

  it('reports sys.exit() as an error and keeps running', async () => {
    const driver = await start();
    const { result } = await driver.execute('import sys\nsys.exit(2)');
    expect(result.error).toMatchObject({ type: 'SystemExit', line: 2 });
    expect((await driver.execute('1 + 1')).result.return_value).toEqual({ 'text/plain': '2' });
  });

  it('lists user variables with types and short reprs, and reset removes them', async () => {
    const driver = await start();
    await driver.execute(
      "import json as j\nx = 42\ntext = 'a' * 500\n_private = 1\ndef f(): pass\nclass K: pass",
    );
    const listVariables = async (id: string) => {
      driver.send({ type: 'list_variables', id });
      const reply = await driver.waitFor(
        (m): m is { type: 'variables'; id: string; variables: Variable[] } =>
          m.type === 'variables' && m.id === id,
        'the variables',
      );
      return reply.variables;
    };
    const variables = await listVariables('vars-1');
    expect(variables.map((v) => v.name).sort()).toEqual(['K', 'f', 'j', 'text', 'x']);
    expect(variables.find((v) => v.name === 'x')).toEqual({ name: 'x', type: 'int', repr: '42' });
    expect(variables.find((v) => v.name === 'j')?.type).toBe('module');
    expect(variables.find((v) => v.name === 'K')?.type).toBe('type');
    const text = variables.find((v) => v.name === 'text')!;
    expect(text.type).toBe('str');
    expect(text.repr.length).toBeLessThanOrEqual(200);
    expect(text.repr.startsWith("'aaaa")).toBe(true);

    driver.send({ type: 'reset', id: 'reset-1' });
    await driver.waitFor((m) => m.type === 'reset_done' && m.id === 'reset-1', 'reset_done');
    expect(await listVariables('vars-2')).toEqual([]);
    expect((await driver.execute('x')).result.error?.type).toBe('NameError');
    expect((await driver.execute('y = 1\ny + 1')).result.return_value).toEqual({ 'text/plain': '2' });
  });

  it('answers an execute that arrives while another runs with KernelBusy, and goes on', async () => {
    const driver = await start();
    const first = driver.start(
      "import os, time\nprint('started')\nwhile not os.path.exists('go'):\n    time.sleep(0.01)\n'first done'",
    );
    await driver.waitForOutput(first.id, 'started');
    const busy = await driver.execute('1 + 1');
    expect(busy.result).toMatchObject({ success: false, return_value: null, error: { type: 'KernelBusy' } });
    expect(busy.result.error!.summary).toMatch(/still running another execution/);
    fs.writeFileSync(path.join(driver.cwd, 'go'), '');
    expect((await first.done).result.return_value).toEqual({ 'text/plain': "'first done'" });
    expect((await driver.execute('2 + 2')).result.return_value).toEqual({ 'text/plain': '4' });
  });

  it(interpreter.ipython ? 'runs IPython magics and !shell commands' : 'has no IPython syntax', async () => {
    const driver = await start();
    const timed = await driver.execute('%time sum(range(10))');
    const shell = await driver.execute('!echo hi from the shell');
    if (interpreter.ipython) {
      expect(timed.result.return_value).toEqual({ 'text/plain': '45' });
      expect(timed.stdout).toMatch(/Wall time/);
      expect(shell.stdout).toBe('hi from the shell\n');
    } else {
      expect(timed.result.error?.type).toBe('SyntaxError');
      expect(shell.result.error?.type).toBe('SyntaxError');
    }
  });
});
