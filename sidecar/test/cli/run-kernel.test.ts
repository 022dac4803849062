// `cairn run` showing the agent's Python cells: their output, displays, input() and limits, at the terminal.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEnv } from '../support/harness';
import { STDLIB_KERNEL_ENV } from '../support/kernel-harness';
import type { ModelServer } from '../support/model-server';
import {
  CAN_USE_TERMINAL,
  runCli,
  setUpCliTest,
  startCliOnTerminal,
  startServe,
  tearDownCliTest,
} from './cli-process';

let model: ModelServer;
let dataDir: string;
let workspace: string;

beforeEach(async () => {
  ({ model, dataDir, workspace } = await setUpCliTest('cli-kernel'));
});

afterEach(() => tearDownCliTest({ model, dataDir, workspace }, []));

const run = (...extra: string[]) => ['run', '--workspace', workspace, '--data-dir', dataDir, ...extra];
/** The stdlib driver, and no spare kernel: each test starts only the kernel it uses. */
const kernelEnv = (extra: NodeJS.ProcessEnv = {}) =>
  testEnv(model, { ...STDLIB_KERNEL_ENV, CAIRN_KERNEL_WARM: '0', ...extra });

const executeCode = (code: string) =>
  model.enqueue(
    { content: [{ type: 'tool_use', name: 'execute_code', input: { code } }] },
    { content: [{ type: 'text', text: 'Done.' }] },
  );

/** The text of the tool_result the model got back for the cell. */
function toolResult(request: number): Record<string, unknown> {
  const last = model.requests[request]!.body.messages.at(-1)!;
  const block = (last.content as { type: string; content: string }[]).find((b) => b.type === 'tool_result')!;
  return JSON.parse(block.content) as Record<string, unknown>;
}

// A cell runs a real Python process; the ceiling only guards against hangs.
describe('cairn run with Python cells', { timeout: 120_000 }, () => {
  it('prints what a cell prints as it runs: stdout on stdout, stderr on stderr, images as a line', async () => {
    executeCode(
      [
        'import sys',
        'print("hello from the cell")',
        'print("a warning", file=sys.stderr)',
        'class Pic:',
        '    def _repr_png_(self):',
        '        return bytes.fromhex("89504e470d0a1a0a") + b"\\0" * 24',
        'display(Pic())',
        'print("after the picture")',
        '6 * 7',
      ].join('\n'),
    );
    const result = await runCli(run('--prompt', 'compute'), { env: kernelEnv() });

    expect(result.stderr).toContain('▸ execute_code import sys ⏎ print("hello from the cell")');
    expect(result.code).toBe(0);
    const stdout = result.stdout.split('\n');
    const hello = stdout.indexOf('hello from the cell');
    const image = stdout.findIndex((line) => /^\[image: image\/png, 32 bytes, artifact \S+\]$/.test(line));
    const after = stdout.indexOf('after the picture');
    const value = stdout.indexOf('42');
    // In the order the cell produced them, then the answer.
    expect([hello, image, after, value].every((i) => i >= 0)).toBe(true);
    expect(hello < image && image < after && after < value).toBe(true);
    expect(stdout.indexOf('Done.')).toBeGreaterThan(value);
    expect(result.stdout).not.toContain('a warning');
    expect(result.stderr).toContain('a warning\n');
    expect(toolResult(1)).toMatchObject({
      success: true,
      stdout: 'hello from the cell\nafter the picture\n',
    });

    // The artifact the line names is the one the store recorded for the cell.
    const id = /artifact (\S+)\]/.exec(result.stdout)![1]!;
    const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare('SELECT mime, bytes FROM artifacts WHERE id = ?').all(id)).toEqual([
        { mime: 'image/png', bytes: 32 },
      ]);
    } finally {
      db.close();
    }
  });

  it('prints a failing cell as a one-line error on stderr', async () => {
    executeCode('def f():\n    return 1 / 0\nprint("before")\nf()');
    const result = await runCli(run('--prompt', 'divide'), { env: kernelEnv() });

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('before\n');
    expect(result.stderr).toMatch(/✗ .*ZeroDivisionError/);
  });

  it('without a terminal, says the cell waits for input it cannot get, and the input limit ends the wait', async () => {
    executeCode('name = input("Your name? ")\nprint("hello", name)');
    const result = await runCli(run('--prompt', 'greet'), {
      env: kernelEnv({ CAIRN_KERNEL_INPUT_TIMEOUT_MS: '1500' }),
    });

    expect(result.stderr).toContain('The cell asks for input: Your name? ');
    expect(result.stderr).toContain('The cell waits for input that cannot be given here (no terminal)');
    expect(result.stderr).toMatch(/waited for input longer than its limit of 1500 ms: interrupted/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Done.');
    expect(result.stdout).not.toContain('hello');
    expect(toolResult(1)).toMatchObject({ success: false });
  });
});

describe.skipIf(!CAN_USE_TERMINAL)('cairn run with Python cells on a terminal', { timeout: 120_000 }, () => {
  const greet = () => executeCode('name = input("Your name? ")\nprint("hello", name)');

  it('asks for a cell’s input() at the terminal and the cell gets the line typed', async () => {
    greet();
    const cli = startCliOnTerminal(run('--prompt', 'greet'), { env: kernelEnv() });
    await cli.waitForStdout(/The cell asks for input: Your name\?[\s\S]*> /);
    cli.type('Ada\r');
    const result = await cli.result();

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('hello Ada');
    expect(toolResult(1)).toMatchObject({ success: true, stdout: 'hello Ada\n' });
  });

  it('does not echo a getpass() answer', async () => {
    executeCode('import getpass\nsecret = getpass.getpass("Token: ")\nprint("length", len(secret))');
    const cli = startCliOnTerminal(run('--prompt', 'login'), { env: kernelEnv() });
    await cli.waitForStdout(/The cell asks for input \(a password\): Token:[\s\S]*> /);
    cli.type('hunter2\r');
    const result = await cli.result();

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('length 7');
    expect(result.stdout).not.toContain('hunter2');
  });

  it('with --server, sends the typed line to the server’s kernel input route', async () => {
    greet();
    const serve = await startServe(path.join(dataDir, 'served'), kernelEnv());
    const cli = startCliOnTerminal(
      ['run', '--server', serve.url, '--workspace', workspace, '--prompt', 'greet'],
      { env: { ...kernelEnv(), CAIRN_TOKEN: serve.token } },
    );
    await cli.waitForStdout(/The cell asks for input: Your name\?[\s\S]*> /);
    cli.type('Grace\r');
    const result = await cli.result();

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('hello Grace');
    expect(toolResult(1)).toMatchObject({ success: true, stdout: 'hello Grace\n' });
    // A graceful stop, so the server closes its kernel rather than leaving it to the SIGKILL of the teardown.
    serve.proc.child.kill('SIGTERM');
    await serve.proc.exited;
  });
});
