import { z } from 'zod';
import { DEFAULT_KERNEL } from '../../kernels/session-kernels';
import type { KernelToolService } from '../kernel-service';
import { defineTool, type Tool } from '../tool';
import { kernelInput } from './execute-code';
import { refuseOwnKernel } from './kernel-reentry';
import { clip } from './kernel-result';

const inputSchema = z.object({ kernel: kernelInput });

/** Enough to see what is there without flooding the context. */
const MAX_VARIABLES = 300;
const MAX_REPR = 200;

export function listVariablesTool(kernels: KernelToolService): Tool<typeof inputSchema> {
  return defineTool({
    name: 'list_variables',
    description:
      "Lists the variables defined in a Python kernel (yours and the user's): name, type and a short repr. " +
      'Names starting with "_" are left out.',
    inputSchema,
    sideEffects: false,
    needsProject: true,
    async execute(input, ctx) {
      const name = input.kernel ?? DEFAULT_KERNEL;
      refuseOwnKernel(ctx, name);
      const variables = await kernels.listVariables(name);
      const shown = variables.slice(0, MAX_VARIABLES).map((v) => ({ ...v, repr: clip(v.repr, MAX_REPR) }));
      const body: Record<string, unknown> = { kernel: name, variables: shown };
      if (variables.length > shown.length) body.more = variables.length - shown.length;
      return { content: JSON.stringify(body, null, 1) };
    },
  });
}
