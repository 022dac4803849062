import { describe, expect, it } from 'vitest';
import { executeCodeTool } from '../../src/tools/builtin/execute-code';
import type { KernelToolService } from '../../src/tools/kernel-service';
import { makeContext, runTool } from './tool-context';

/** The limit execute_code asks its kernel for, and the cells it refuses before any kernel is reached. */
describe('execute_code limits', () => {
  const recording = () => {
    const calls: { kernel: string; activeMs: number | undefined }[] = [];
    const kernels: KernelToolService = {
      async execute(kernel, _code, call) {
        calls.push({ kernel, activeMs: call.activeMs });
        throw new Error('not run here');
      },
      reset: async () => undefined,
      listVariables: async () => [],
    };
    return { calls, tool: executeCodeTool(kernels) };
  };

  it('keeps the kernel’s limit for a waited cell unless given another, at most 600 s; none in the background', async () => {
    const { calls, tool } = recording();
    const run = (input: object, background: boolean) =>
      runTool(tool, { code: '1', ...input }, makeContext({ projectRoot: '/tmp', background })).catch(
        () => null,
      );
    await run({}, false);
    await run({ timeout: 30 }, false);
    await run({ timeout: 5000 }, false);
    await run({}, true);
    await run({ timeout: 5000 }, true);
    expect(calls.map((c) => c.activeMs)).toEqual([
      undefined,
      30_000,
      600_000,
      Number.POSITIVE_INFINITY,
      5_000_000,
    ]);
  });

  it('refuses a cell a cell of the same kernel started, which would wait for itself', async () => {
    const { calls, tool } = recording();
    const ancestors = [
      { name: 'Bash', input: {} },
      { name: 'execute_code', input: { code: 'x', kernel: 'k2' } },
    ];
    await expect(
      runTool(tool, { code: '1', kernel: 'k2' }, makeContext({ projectRoot: '/tmp', ancestors })),
    ).rejects.toThrow(/wait for itself/);
    await runTool(tool, { code: '1' }, makeContext({ projectRoot: '/tmp', ancestors })).catch(() => null);
    expect(calls.map((c) => c.kernel)).toEqual(['default']);
  });
});
