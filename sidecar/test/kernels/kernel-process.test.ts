import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRIVER_PROTOCOL_VERSION } from '../../src/kernels/driver-messages';
import { KernelExitedError } from '../../src/kernels/kernel-exit';
import { KernelProcess } from '../../src/kernels/kernel-process';
import { MAX_PIECE_BYTES } from '../../src/kernels/utf8-pieces';
import { isProcessGone, makeTempDir, removeDir, waitFor } from '../tools/tool-context';
import { DRIVER_PATH, FLAVOURS, kernelEnv, mergeRuns, recordingLogger, STDLIB } from './kernel-support';

describe.each(FLAVOURS)('KernelProcess with the $label', (flavour) => {
  let dir: string;
  const started: KernelProcess[] = [];
  const start = async () => {
    const kernel = await KernelProcess.start({
      python: flavour.python,
      cwd: dir,
      env: kernelEnv(),
      driverPath: DRIVER_PATH,
      ipython: flavour.ipython,
    });
    started.push(kernel);
    return kernel;
  };

  beforeAll(async () => {
    dir = await makeTempDir('cairn-kernel-');
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((k) => k.kill()));
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  it('starts, says what it runs, and returns the value of the last expression', async () => {
    const kernel = await start();
    expect(kernel.ready.protocol).toBe(2);
    expect(kernel.ready.protocol).toBe(DRIVER_PROTOCOL_VERSION);
    expect(kernel.ready.ipython).toBe(flavour.ipython);
    expect(kernel.ready.pid).toBe(kernel.pid);

    const result = await kernel.execute('a = 20\na + 22');
    expect(result.success).toBe(true);
    expect(result.returnValue?.['text/plain']).toBe('42');
    expect(result.error).toBeNull();
  });

  it('keeps variables between cells, runs in the given folder with the kernel settings in its env', async () => {
    const kernel = await start();
    await kernel.execute('import os\nvalue = [1, 2, 3]');
    const result = await kernel.execute(
      "(sum(value), os.getcwd(), os.environ.get('MPLBACKEND'), os.environ.get('PYTHONIOENCODING'))",
    );
    expect(result.returnValue?.['text/plain']).toBe(`(6, '${dir}', 'Agg', 'utf-8')`);
  });

  it('streams stdout and stderr in the order written, all before the result', async () => {
    const kernel = await start();
    const seen: [string, string][] = [];
    const result = await kernel.execute(
      [
        'import sys, time',
        "print('one', flush=True)",
        'time.sleep(0.2)',
        "print('two', file=sys.stderr, flush=True)",
        'time.sleep(0.2)',
        "print('three')",
      ].join('\n'),
      { onStream: (name, text) => seen.push([name, text]) },
    );
    seen.push(['result', '']);
    expect(result.success).toBe(true);
    expect(mergeRuns(seen)).toEqual([
      ['stdout', 'one\n'],
      ['stderr', 'two\n'],
      ['stdout', 'three\n'],
      ['result', ''],
    ]);
  });

  it('hands on big output whole, as strings of at most MAX_PIECE_BYTES, cut between characters', async () => {
    const kernel = await start();
    const pieces: string[] = [];
    const result = await kernel.execute("print('é€😀' * 100_000)", {
      onStream: (name, text) => {
        if (name === 'stdout') pieces.push(text);
      },
    });
    expect(result.success).toBe(true);
    expect(pieces.join('')).toBe(`${'é€😀'.repeat(100_000)}\n`);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(Buffer.byteLength(piece, 'utf8')).toBeLessThanOrEqual(MAX_PIECE_BYTES);
      expect(piece).not.toContain('\ufffd');
    }
  });

  it('asks for input, delivers the reply, and streams what came before the question', async () => {
    const kernel = await start();
    let stdout = '';
    let beforeQuestion: string | null = null;
    let prompt: string | null = null;
    const result = await kernel.execute(
      "print('before')\nname = input('Name? ')\nprint('hello', name)\nname",
      {
        onStream: (_name, text) => {
          stdout += text;
        },
        onInputRequest: (request) => {
          beforeQuestion = stdout;
          prompt = request.prompt;
          kernel.reply(request.requestId, 'Ada');
        },
      },
    );
    expect(result.success).toBe(true);
    expect(result.returnValue?.['text/plain']).toBe("'Ada'");
    expect(prompt).toBe('Name? ');
    expect(beforeQuestion).toBe('before\n');
    expect(stdout).toBe('before\nhello Ada\n');
  });

  it('marks getpass() requests as passwords', async () => {
    const kernel = await start();
    const requests: { prompt: string; password: boolean }[] = [];
    const result = await kernel.execute('import getpass\nlen(getpass.getpass("Key: "))', {
      onInputRequest: (request) => {
        requests.push({ prompt: request.prompt, password: request.password });
        kernel.reply(request.requestId, 'secret');
      },
    });
    expect(requests).toEqual([{ prompt: 'Key: ', password: true }]);
    expect(result.returnValue?.['text/plain']).toBe('6');
  });

  it("gives the kernel only the environment it is handed, not the sidecar's own", async () => {
    process.env.CAIRN_KERNEL_TEST_TOKEN = 'not-for-kernels';
    try {
      const kernel = await start(); // kernelEnv() is childEnv(): CAIRN_* variables are dropped
      const result = await kernel.execute("import os\nos.environ.get('CAIRN_KERNEL_TEST_TOKEN')");
      expect(result.success).toBe(true);
      expect(result.returnValue).toBeNull();
    } finally {
      delete process.env.CAIRN_KERNEL_TEST_TOKEN;
    }
  });

  it.each([
    ['time.sleep', 'import time\nprint("go", flush=True)\ntime.sleep(30)'],
    ['a busy loop', 'print("go", flush=True)\nwhile True:\n    pass'],
  ])('interrupts %s with KeyboardInterrupt and stays usable', async (_what, code) => {
    const kernel = await start();
    await kernel.execute('kept = 7');
    const result = await kernel.execute(code, {
      onStream: (_n, text) => text.includes('go') && kernel.interrupt(),
    });
    expect(result.success).toBe(false);
    expect(result.error?.type).toBe('KeyboardInterrupt');
    expect((await kernel.execute('kept')).returnValue?.['text/plain']).toBe('7');
  });

  it('interrupts through the abort signal', async () => {
    const kernel = await start();
    const controller = new AbortController();
    const result = await kernel.execute('import time\nprint("go", flush=True)\ntime.sleep(30)', {
      onStream: () => controller.abort(),
      signal: controller.signal,
    });
    expect(result.error?.type).toBe('KeyboardInterrupt');
  });

  it('resets variables and lists them', async () => {
    const kernel = await start();
    await kernel.execute('x = 41\n_hidden = 1\ndef f(): pass');
    const variables = await kernel.listVariables();
    expect(variables.find((v) => v.name === 'x')).toEqual({ name: 'x', type: 'int', repr: '41' });
    expect(variables.some((v) => v.name === '_hidden')).toBe(false);
    await kernel.reset();
    expect((await kernel.listVariables()).some((v) => v.name === 'x')).toBe(false);
    expect((await kernel.execute('x')).error?.type).toBe('NameError');
  });

  it('reports a crash as KernelExitedError with the exit code, and the process is gone', async () => {
    const kernel = await start();
    const exits: unknown[] = [];
    kernel.onExit((exit) => exits.push(exit));
    const error = await kernel.execute('import os\nos._exit(3)').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(KernelExitedError);
    expect((error as KernelExitedError).exit).toMatchObject({ code: 3, signal: null, requested: null });
    expect(exits).toHaveLength(1);
    expect(kernel.isAlive).toBe(false);
    await expect(kernel.execute('1')).rejects.toBeInstanceOf(KernelExitedError);
  });

  it('shuts down on request, taking the processes its cells started along', async () => {
    const kernel = await start();
    const child = await kernel.execute("import subprocess\np = subprocess.Popen(['sleep', '60'])\np.pid");
    const childPid = Number(child.returnValue?.['text/plain']);
    expect(childPid).toBeGreaterThan(0);

    const exit = await kernel.shutdown();
    expect(exit.requested).toBe('shutdown');
    await waitFor(() => isProcessGone(kernel.pid) && isProcessGone(childPid));
  });

  it('kills a kernel stuck in a cell, with its process group', async () => {
    const kernel = await start();
    const running = kernel.execute(
      "import subprocess, time\np = subprocess.Popen(['sleep', '60'])\nprint(p.pid, flush=True)\ntime.sleep(60)",
      { onStream: () => void kernel.kill() },
    );
    const error = await running.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(KernelExitedError);
    expect((error as KernelExitedError).exit.requested).toBe('kill');
    await waitFor(() => isProcessGone(kernel.pid));
  });
});

describe('KernelProcess against a misbehaving driver', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('cairn-fake-driver-');
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  const fakeDriver = async (name: string, body: string) => {
    const file = path.join(dir, name);
    await fs.writeFile(file, `import json, os, sys\n${body}\n`);
    return file;
  };

  it('logs a bad line and goes on; a result it cannot read still ends the execution', async () => {
    const driver = await fakeDriver(
      'bad-lines.py',
      [
        "out = os.fdopen(os.dup(1), 'w')",
        "def send(text): out.write(text + '\\n'); out.flush()",
        "send('this is not json')",
        `send(json.dumps({'type': 'ready', 'protocol': ${DRIVER_PROTOCOL_VERSION}, 'python': '3', 'implementation': 'CPython', 'ipython': False, 'pid': os.getpid()}))`,
        'for line in sys.stdin:',
        '    m = json.loads(line)',
        "    send(json.dumps({'type': 'mystery'}))",
        "    send(json.dumps({'type': 'result', 'id': m['id'], 'success': 'yes'}))",
      ].join('\n'),
    );
    const logger = recordingLogger();
    const kernel = await KernelProcess.start({
      python: STDLIB.python,
      cwd: dir,
      env: kernelEnv(),
      driverPath: driver,
      logger,
    });
    try {
      const result = await kernel.execute('1');
      expect(result.success).toBe(false);
      expect(result.error?.type).toBe('KernelProtocolError');
      const problems = logger.lines.filter((l) => l.msg === 'kernel driver sent a bad line');
      expect(problems.map((p) => p.fields?.problem)).toEqual([
        'not JSON',
        'unknown message type "mystery"',
        expect.stringContaining('success'),
      ]);
      expect(kernel.isAlive).toBe(true);
    } finally {
      await kernel.kill();
    }
  });

  it('gives up on a driver that never says ready, kills it, and shows its error output', async () => {
    const pidFile = path.join(dir, 'silent.pid');
    const driver = await fakeDriver(
      'silent.py',
      `open(${JSON.stringify(pidFile)}, 'w').write(str(os.getpid()))\nsys.stderr.write('something is wrong\\n')\nsys.stderr.flush()\nimport time\ntime.sleep(60)`,
    );
    const error = await KernelProcess.start({
      python: STDLIB.python,
      cwd: dir,
      env: kernelEnv(),
      driverPath: driver,
      readyTimeoutMs: 1_500,
    }).catch((err: unknown) => err);
    expect((error as Error).message).toContain('no ready message within');
    expect((error as Error).message).toContain('something is wrong');
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    await waitFor(() => isProcessGone(pid));
  });

  it('refuses a driver that speaks another protocol version, and stops it', async () => {
    const pidFile = path.join(dir, 'old.pid');
    const driver = await fakeDriver(
      'old-protocol.py',
      [
        `open(${JSON.stringify(pidFile)}, 'w').write(str(os.getpid()))`,
        // A v1 driver: stream text inside JSON. Its ready alone must be enough to refuse it.
        "print(json.dumps({'type': 'ready', 'protocol': 1, 'python': '3', 'implementation': 'CPython', 'ipython': False, 'pid': os.getpid()}), flush=True)",
        'import time',
        'time.sleep(60)',
      ].join('\n'),
    );
    const error = await KernelProcess.start({
      python: STDLIB.python,
      cwd: dir,
      env: kernelEnv(),
      driverPath: driver,
    }).catch((err: unknown) => err);
    expect((error as Error).message).toContain(
      `its driver speaks protocol 1, this sidecar ${DRIVER_PROTOCOL_VERSION}`,
    );
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    await waitFor(() => isProcessGone(pid));
  });

  it('reports a driver that exits at start-up', async () => {
    const driver = await fakeDriver('exits.py', "sys.stderr.write('bad install\\n')\nsys.exit(5)");
    const error = await KernelProcess.start({
      python: STDLIB.python,
      cwd: dir,
      env: kernelEnv(),
      driverPath: driver,
    }).catch((err: unknown) => err);
    expect((error as Error).message).toMatch(/exited at start-up \(exit code 5\)/);
    expect((error as Error).message).toContain('bad install');
  });

  it('says which interpreter could not be started', async () => {
    const error = await KernelProcess.start({
      python: { command: path.join(dir, 'no-python'), args: [] },
      cwd: dir,
      env: kernelEnv(),
      driverPath: DRIVER_PATH,
    }).catch((err: unknown) => err);
    expect((error as Error).message).toContain('Could not start the Python kernel with');
    expect((error as Error).message).toContain('no-python');
  });
});
