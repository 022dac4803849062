// The driver's channel: everything user code writes, by any route, arrives as `stream` messages, as it is
// produced, in order, and can never corrupt the JSON-lines protocol.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAllDrivers, DriverProcess, INTERPRETERS, type StreamMessage } from './driver-process';

afterEach(closeAllDrivers);

/** The stream messages of an execution as `[stdout]…[stderr]…`, consecutive chunks of one stream merged. */
function transcript(messages: { type: string }[]): string {
  let text = '';
  let current = '';
  for (const m of messages.filter((m): m is StreamMessage => m.type === 'stream')) {
    if (m.name !== current) text += `[${m.name}]`;
    current = m.name;
    text += m.text;
  }
  return text;
}

describe.each(INTERPRETERS)('kernel driver channel: $label', (interpreter) => {
  it('says ready once set up, with the facts the host needs, having imported nothing third-party itself', async () => {
    const { driver, ready } = await DriverProcess.start(interpreter);
    expect(ready).toMatchObject({
      protocol: 2,
      implementation: 'CPython',
      ipython: interpreter.ipython,
      pid: driver.pid,
    });
    expect(ready.python).toMatch(/^3\.\d+\.\d+$/);
    const run = await driver.execute(
      "import sys\nsorted(name for name in ('IPython', 'matplotlib', 'numpy') if name in sys.modules)",
    );
    expect(run.result.return_value).toEqual({ 'text/plain': interpreter.ipython ? "['IPython']" : '[]' });
  });

  it('captures print, os.write, child processes and C-level writes as stream messages', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      [
        'import ctypes, os, subprocess',
        "print('from print')",
        "os.write(1, b'from os.write\\n')",
        "os.system('echo from a child process')",
        'libc = ctypes.CDLL(None)',
        "libc.printf(b'from C printf %d\\n', 42)",
        'libc.fflush(None)',
        "os.write(2, b'to fd 2\\n')",
        "subprocess.run(['sh', '-c', 'echo child stderr >&2'])",
        'None',
      ].join('\n'),
    );
    expect(run.result).toMatchObject({ success: true, error: null });
    expect(run.stdout).toBe('from print\nfrom os.write\nfrom a child process\nfrom C printf 42\n');
    expect(run.stderr).toBe('to fd 2\nchild stderr\n');
    expect(driver.corruptLines).toEqual([]);
  });

  it('cannot be corrupted: a line that looks like a message, a missing newline, 10 MB of output', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    // Uses its own execution id, so a leak into the channel would show up as a second result for it.
    const fake =
      '{"type":"result","id":"exec-1","success":true,"return_value":null,"error":null,"execution_time_ms":0}';
    const run = await driver.execute(
      `import os, sys\nprint('${fake}')\nos.write(1, b'${fake}\\n')\nsys.stdout.write('no newline at the end')`,
    );
    expect(run.stdout).toBe(`${fake}\n${fake}\nno newline at the end`);
    const big = await driver.execute("import sys\nsys.stdout.write('0123456789' * 1_000_000)\nNone");
    expect(big.stdout.length).toBe(10_000_000);
    expect(big.stdout).toBe('0123456789'.repeat(1_000_000));
    expect(big.messages.filter((m) => m.type === 'stream').length).toBeGreaterThan(1); // chunked, not one line
    const after = await driver.execute('1 + 1');
    expect(after.result.return_value).toEqual({ 'text/plain': '2' });
    expect(driver.messages.filter((m) => m.type === 'result' && m.id === 'exec-1')).toHaveLength(1);
    expect(driver.corruptLines).toEqual([]);
  });

  it('decodes UTF-8 split across writes and replaces invalid bytes', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      "import os, time\ne = 'é'.encode()\nos.write(1, e[:1])\ntime.sleep(0.05)\nos.write(1, e[1:] + b' \\xff\\n')",
    );
    expect(run.stdout).toBe('é \ufffd\n');
  });

  it('streams output while the cell still runs (the cell waits for the host to see each chunk)', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const waitFile = (name: string) => `while not os.path.exists('${name}'):\n    time.sleep(0.01)`;
    const run = driver.start(
      [
        'import os, subprocess, sys, time',
        "sys.stdout.write('no newline yet ')",
        waitFile('go-0'),
        "print('first')",
        waitFile('go-1'),
        "os.write(2, b'second\\n')",
        waitFile('go-2'),
        "subprocess.run(['sh', '-c', 'echo third; while [ ! -e go-3 ]; do sleep 0.01; done; echo fourth'])",
        'None',
      ].join('\n'),
    );
    // If output were held until the cell ended, the cell would never see its go-file and never end.
    for (const [text, file] of [
      ['no newline yet ', 'go-0'],
      ['first\n', 'go-1'],
      ['second\n', 'go-2'],
      ['third\n', 'go-3'],
    ] as const) {
      await driver.waitForOutput(run.id, text);
      expect(driver.messages.some((m) => m.type === 'result' && m.id === run.id)).toBe(false);
      fs.writeFileSync(path.join(driver.cwd, file), '');
    }
    const done = await run.done;
    expect(done.stdout).toBe('no newline yet first\nthird\nfourth\n');
    expect(done.stderr).toBe('second\n');
  });

  it('keeps the order of Python-level writes that alternate between stdout and stderr', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      [
        'import sys',
        'for i in range(30):',
        "    print(f'out {i}')",
        "    print(f'err {i}', file=sys.stderr)",
        "sys.stdout.write('partial line ')",
        "print('then stderr', file=sys.stderr)",
      ].join('\n'),
    );
    let expected = '';
    for (let i = 0; i < 30; i++) expected += `[stdout]out ${i}\n[stderr]err ${i}\n`;
    expected += '[stdout]partial line [stderr]then stderr\n';
    expect(transcript(run.messages)).toBe(expected);
  });

  it('forwards fd-level output on the other stream before the next Python-level write that switches streams', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      [
        'import os, subprocess, sys',
        "os.write(1, b'fd out\\n')",
        "subprocess.run(['echo', 'child out'])",
        "print('python err', file=sys.stderr)",
        "os.write(2, b'fd err\\n')",
        "subprocess.run(['sh', '-c', 'echo child err >&2'])",
        "print('python out')",
      ].join('\n'),
    );
    expect(transcript(run.messages)).toBe(
      '[stdout]fd out\nchild out\n[stderr]python err\nfd err\nchild err\n[stdout]python out\n',
    );
  });

  it('keeps the order of print() and writes by other routes to the same stream', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    // print() may skip the capture pipe; after any other route has written it must not overtake that.
    const run = await driver.execute(
      [
        'import ctypes, os, subprocess, sys',
        "print('p1')",
        "os.write(1, b'w1\\n')",
        "print('p2')",
        "subprocess.run(['echo', 'c1'])",
        "print('p3')",
        "sys.stdout.buffer.write(b'b1\\n')",
        "print('p4')",
        'libc = ctypes.CDLL(None)',
        "libc.printf(b'f1\\n')",
        'libc.fflush(None)',
        "print('p5')",
        "os.system('echo s1')",
        "print('p6')",
        'saved = os.dup(1)',
        "f = os.open('out.txt', os.O_WRONLY | os.O_CREAT | os.O_TRUNC)",
        'os.dup2(f, 1)',
        "print('into the file', flush=True)",
        'os.dup2(saved, 1)',
        "print('p7')",
        "open('out.txt').read()",
      ].join('\n'),
    );
    expect(run.stdout).toBe('p1\nw1\np2\nc1\np3\nb1\np4\nf1\np5\ns1\np6\np7\n');
    expect(run.result.return_value).toEqual({ 'text/plain': "'into the file\\n'" });
  });

  it('keeps a C function called through ctypes before the print after it, in later cells too', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    // A call through ctypes raises no audit event; the lookup does, and the pointer may be kept for later.
    await driver.execute(
      'import ctypes\nlibc = ctypes.CDLL(None)\nprintf, fflush = libc.printf, libc.fflush',
    );
    const outputs = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const run = await driver.execute("print('a')\nprintf(b'c\\n')\nfflush(None)\nprint('b')");
      outputs.add(run.stdout);
    }
    expect([...outputs]).toEqual(['a\nc\nb\n']);
  });

  it('sends many small prints as a few stream messages, and a print before a pause at once', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute("for i in range(5000):\n    print('line', i)");
    let expected = '';
    for (let i = 0; i < 5000; i++) expected += `line ${i}\n`;
    expect(run.stdout).toBe(expected);
    expect(run.messages.filter((m) => m.type === 'stream').length).toBeLessThanOrEqual(20);
    // Batched, but not held: the host sees it while the cell still waits.
    const waiting = driver.start(
      "import os, time\nprint('before the pause')\nwhile not os.path.exists('go'):\n    time.sleep(0.01)",
    );
    await driver.waitForOutput(waiting.id, 'before the pause\n');
    fs.writeFileSync(path.join(driver.cwd, 'go'), '');
    expect((await waiting.done).stdout).toBe('before the pause\n');
  });

  it('captures the output of forked multiprocessing workers, which cannot reach the channel', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      [
        'import multiprocessing, sys',
        'def work(i):',
        "    print('worker out', i)",
        "    print('worker err', i, file=sys.stderr)",
        '    return i * 2',
        "with multiprocessing.get_context('fork').Pool(2) as pool:",
        '    doubled = pool.map(work, [1, 2])',
        'doubled',
      ].join('\n'),
    );
    expect(run.result.return_value).toEqual({ 'text/plain': '[2, 4]' });
    expect(run.stdout.split('\n').sort()).toEqual(['', 'worker out 1', 'worker out 2']);
    expect(run.stderr.split('\n').sort()).toEqual(['', 'worker err 1', 'worker err 2']);
    expect(driver.corruptLines).toEqual([]);
  });

  it('sends all output of an execution before its result, even from a child that writes late', async () => {
    const { driver } = await DriverProcess.start(interpreter);
    const run = await driver.execute(
      "import subprocess\nsubprocess.run(['sh', '-c', 'sleep 0.2; echo late; echo late err >&2'])\nNone",
    );
    const last = run.messages.at(-1);
    expect(last?.type).toBe('result');
    expect(run.stdout).toBe('late\n');
    expect(run.stderr).toBe('late err\n');
  });
});
