import { z } from 'zod';
import { DEFAULT_KERNEL } from '../../kernels/session-kernels';
import { KernelName } from '../../protocol';
import type { KernelToolService } from '../kernel-service';
import { defineTool, type Tool } from '../tool';
import { refuseOwnKernel } from './kernel-reentry';
import { executionToolResult } from './kernel-result';
import { MAX_TIMEOUT_SECONDS } from './process-result';

export const kernelInput = z
  .optional(KernelName)
  .describe(
    `Which of the session's kernels to use (default "${DEFAULT_KERNEL}"); each named kernel has its own variables.`,
  );

const inputSchema = z.object({
  code: z.string().min(1).describe('Python code to run; the value of its last expression is returned.'),
  kernel: kernelInput,
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(
      'Seconds of active execution before the cell is interrupted (default 120; in the background, none).',
    ),
});

export function executeCodeTool(kernels: KernelToolService): Tool<typeof inputSchema> {
  return defineTool({
    name: 'execute_code',
    description:
      'Runs Python code in a persistent kernel, a live Python process shared with the user, in the project ' +
      'folder. State persists between calls: variables, imports and functions from one call are there in ' +
      'the next, so write small, direct snippets that build on earlier results rather than whole scripts ' +
      'that start over. The value of the last expression is returned as return_value (no need to print ' +
      'it). Returns JSON with success, stdout, stderr, return_value, error (a summary to act on), ' +
      'error_details (type, line, snippet, traceback of your code), execution_time_ms and files (rich ' +
      'outputs saved as files: matplotlib figures are captured as PNG without calling show()). input() and ' +
      'getpass() work: the user is asked and the call waits for the answer. A call may run 120 s of active ' +
      'time (waiting for input does not count); the user can interrupt it. In the background, later cells ' +
      'of its kernel wait for it. Cells can call your tools with `import cairn_tools`, and reach your own ' +
      'state with `runtime.selfref`: .context (inspect, remember, forget, compact), .fork (spawn, gather_all) ' +
      'and .memory (read and edit your working history, applied as one new context version after this ' +
      'batch); help(runtime.selfref.memory) says more. If the kernel died or was ' +
      'restarted, state_lost says so and earlier variables are gone. Prefer Read, Edit and Bash for files ' +
      'and commands; use this for computation, data and plots.',
    inputSchema,
    sideEffects: true,
    needsProject: true,
    background: 'tool',
    scripts: true,
    async execute(input, ctx) {
      refuseOwnKernel(ctx, input.kernel ?? DEFAULT_KERNEL);
      // In the background the cell may run as long as it needs, unless the model set a limit; a waited one
      // keeps the kernel's limit unless given another, at most MAX_TIMEOUT_SECONDS (as Bash and Exec).
      const activeMs = ctx.background
        ? input.timeout !== undefined
          ? input.timeout * 1000
          : Number.POSITIVE_INFINITY
        : input.timeout !== undefined
          ? Math.min(input.timeout, MAX_TIMEOUT_SECONDS) * 1000
          : undefined;
      const result = await kernels.execute(input.kernel ?? DEFAULT_KERNEL, input.code, {
        toolCallId: ctx.toolCallId,
        signal: ctx.signal,
        toolToken: ctx.scriptAccess?.token,
        activeMs,
        // The journal has the output as kernel.stream events; the call's pieces get it too (ToolControl output).
        onStream: (_stream, text) => ctx.writePiece(text),
      });
      return executionToolResult(result, ctx);
    },
  });
}
