import { z } from 'zod';
import { DEFAULT_KERNEL } from '../../kernels/session-kernels';
import type { KernelToolService } from '../kernel-service';
import { defineTool, type Tool } from '../tool';
import { kernelInput } from './execute-code';
import { refuseOwnKernel } from './kernel-reentry';

const inputSchema = z.object({ kernel: kernelInput });

export function resetReplTool(kernels: KernelToolService): Tool<typeof inputSchema> {
  return defineTool({
    name: 'reset_repl',
    description:
      'Clears every variable, function and import you defined in a Python kernel, keeping the process ' +
      'running. Use it to start over from a clean namespace; the user shares the kernel, so only when needed.',
    inputSchema,
    sideEffects: false,
    needsProject: true,
    async execute(input, ctx) {
      const name = input.kernel ?? DEFAULT_KERNEL;
      refuseOwnKernel(ctx, name);
      await kernels.reset(name);
      return { content: `The variables of kernel "${name}" were cleared.` };
    },
  });
}
