import { DEFAULT_KERNEL } from '../../kernels/session-kernels';
import { type ToolContext, ToolError } from '../tool';

const KERNEL_TOOLS = new Set(['execute_code', 'reset_repl', 'list_variables']);

/**
 * A kernel runs one thing at a time: a call that a cell of kernel `name` made (directly, or through a
 * command the cell ran) would wait for that very cell, forever. Refused at once, saying what to do.
 */
export function refuseOwnKernel(ctx: ToolContext, name: string): void {
  const cell = ctx.ancestors.find(
    (call) =>
      call.name === 'execute_code' &&
      ((call.input as { kernel?: string } | null)?.kernel ?? DEFAULT_KERNEL) === name,
  );
  if (!cell) return;
  throw new ToolError(
    `This call comes from a cell running in kernel "${name}", which runs one cell at a time: it would wait for ` +
      'itself. Use another kernel (e.g. "kernel": "worker"), or do the work in the cell itself.',
  );
}

export function isKernelTool(name: string): boolean {
  return KERNEL_TOOLS.has(name);
}
