import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerSecret } from '../../src/secrets/known-secrets';
import { bashTool } from '../../src/tools/builtin/bash';
import { execTool } from '../../src/tools/builtin/exec';
import { timeoutSeconds } from '../../src/tools/builtin/process-result';
import { readTool } from '../../src/tools/builtin/read';
import { ToolError } from '../../src/tools/tool';
import { isProcessGone, makeContext, makeTempDir, removeDir, runTool, waitFor } from './tool-context';

// Bash needs Git Bash on Windows; these tests use POSIX commands.
describe('time limits of Bash and Exec', () => {
  it('default to 120 s and cap at 600 s for a waited call; a background call has none unless given', () => {
    expect(timeoutSeconds(undefined)).toBe(120);
    expect(timeoutSeconds(30)).toBe(30);
    expect(timeoutSeconds(5000)).toBe(600);
    expect(timeoutSeconds(undefined, true)).toBeNull();
    expect(timeoutSeconds(5000, true)).toBe(5000);
    expect(timeoutSeconds(-1, true)).toBeNull();
  });
});

describe.skipIf(process.platform === 'win32')('Bash', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(() => removeDir(root));

  it('runs in the project folder, streams output and returns it', async () => {
    const ctx = makeContext({ projectRoot: root });
    const result = await runTool(bashTool, { command: 'pwd; echo to-stderr >&2' }, ctx);
    expect(result.isError).toBeFalsy();
    expect(result.content).toContain(root);
    expect(result.content).toContain('to-stderr');
    expect(ctx.outputs.map((o) => o.stream)).toContain('stderr');
    expect(ctx.outputs.map((o) => o.text).join('')).toContain(root);
  });

  it('writes a file that Read then reads back', async () => {
    const ctx = makeContext({ projectRoot: root });
    await runTool(bashTool, { command: 'mkdir -p out && printf "one\\ntwo\\n" > out/f.txt' }, ctx);
    const read = await runTool(readTool, { path: 'out/f.txt' }, ctx);
    expect(read.content).toBe('     1\tone\n     2\ttwo');
  });

  it('reports a non-zero exit code as an error, with the output', async () => {
    const result = await runTool(
      bashTool,
      { command: 'echo partial; exit 3' },
      makeContext({ projectRoot: root }),
    );
    expect(result).toEqual({ content: 'partial\n[exit code 3]', isError: true, exitCode: 3, meta: {} });
  });

  it('says so when there is no output', async () => {
    expect((await runTool(bashTool, { command: 'true' }, makeContext({ projectRoot: root }))).content).toBe(
      '(no output)',
    );
  });

  it('starts a fresh shell each call: cd and export do not carry over', async () => {
    const ctx = makeContext({ projectRoot: root });
    await fs.mkdir(path.join(root, 'sub'));
    await runTool(bashTool, { command: 'cd sub && export CARRIED=yes' }, ctx);
    const result = await runTool(
      bashTool,
      { command: 'pwd; test -n "$CARRIED" && echo set || echo unset' },
      ctx,
    );
    expect(result.content).toBe(`${root}\nunset\n`);
  });

  it('kills the whole process tree on timeout', async () => {
    const result = await runTool(
      bashTool,
      { command: 'sleep 1000 & echo $! > pid; wait', timeout: 1 },
      makeContext({ projectRoot: root }),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain('timed out after 1 s; the process tree was killed');
    const pid = Number(await fs.readFile(path.join(root, 'pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => isProcessGone(pid));
  });

  it('kills the whole process tree when the signal aborts, and resolves', async () => {
    const controller = new AbortController();
    const ctx = makeContext({ projectRoot: root, signal: controller.signal });
    const running = runTool(bashTool, { command: 'sleep 1000 & echo $! > pid; wait' }, ctx);
    const pidFile = path.join(root, 'pid');
    await waitFor(async () => (await fs.readFile(pidFile, 'utf8').catch(() => '')).trim() !== '');
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.content).toContain('cancelled');
    await waitFor(() => isProcessGone(pid));
  });

  it('gives commands no Cairn secret in their environment', async () => {
    const secret = 'registered-secret-for-bash-test';
    registerSecret(secret);
    const saved = { ...process.env };
    Object.assign(process.env, {
      CAIRN_TOKEN: 'cairn-token-value-1',
      CAIRN_ANTHROPIC_API_KEY: 'sk-ant-test-value-2',
      ANTHROPIC_API_KEY: 'sk-ant-test-value-3',
      INNOCENT_LOOKING: secret,
      HARMLESS_VARIABLE: 'visible',
    });
    try {
      const result = await runTool(bashTool, { command: 'env' }, makeContext({ projectRoot: root }));
      expect(result.content).toContain('HARMLESS_VARIABLE=visible');
      for (const leaked of [
        'CAIRN_TOKEN',
        'CAIRN_ANTHROPIC_API_KEY',
        'ANTHROPIC_API_KEY',
        'INNOCENT_LOOKING',
      ]) {
        expect(result.content).not.toContain(leaked);
      }
      for (const value of ['cairn-token-value-1', 'sk-ant-test-value-2', 'sk-ant-test-value-3', secret]) {
        expect(result.content).not.toContain(value);
      }
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it('needs a project', async () => {
    await expect(runTool(bashTool, { command: 'true' }, makeContext({ projectRoot: null }))).rejects.toThrow(
      ToolError,
    );
  });
});

describe('Exec', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(() => removeDir(root));

  it('runs a program with arguments passed as-is, in the project folder', async () => {
    const result = await runTool(
      execTool,
      {
        program: process.execPath,
        args: [
          '-e',
          'console.log(JSON.stringify([process.cwd(), ...process.argv.slice(1)]))',
          '$HOME',
          'a b',
          '*',
        ],
      },
      makeContext({ projectRoot: root }),
    );
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(result.content)).toEqual([root, '$HOME', 'a b', '*']);
  });

  it('reports a non-zero exit code as an error', async () => {
    const result = await runTool(
      execTool,
      { program: process.execPath, args: ['-e', 'console.error("bad"); process.exit(2)'] },
      makeContext({ projectRoot: root }),
    );
    expect(result).toEqual({ content: 'bad\n[exit code 2]', isError: true, exitCode: 2, meta: {} });
  });

  it('gives a clear error for a program that does not exist', async () => {
    await expect(
      runTool(
        execTool,
        { program: 'cairn-no-such-program-xyz', args: [] },
        makeContext({ projectRoot: root }),
      ),
    ).rejects.toThrow(/Program not found: "cairn-no-such-program-xyz"/);
  });

  it('hides Cairn secrets from the program', async () => {
    const saved = process.env.CAIRN_TOKEN;
    process.env.CAIRN_TOKEN = 'exec-test-token-value';
    try {
      const result = await runTool(
        execTool,
        { program: process.execPath, args: ['-e', 'console.log(String(process.env.CAIRN_TOKEN))'] },
        makeContext({ projectRoot: root }),
      );
      expect(result.content.trim()).toBe('undefined');
    } finally {
      if (saved === undefined) delete process.env.CAIRN_TOKEN;
      else process.env.CAIRN_TOKEN = saved;
    }
  });

  it.skipIf(process.platform === 'win32')('kills the tree when the signal aborts', async () => {
    const controller = new AbortController();
    const ctx = makeContext({ projectRoot: root, signal: controller.signal });
    const running = runTool(
      execTool,
      { program: 'sh', args: ['-c', 'sleep 1000 & echo $! > pid; wait'] },
      ctx,
    );
    const pidFile = path.join(root, 'pid');
    await waitFor(async () => (await fs.readFile(pidFile, 'utf8').catch(() => '')).trim() !== '');
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    controller.abort();
    expect((await running).content).toContain('cancelled');
    await waitFor(() => isProcessGone(pid));
  });
});
