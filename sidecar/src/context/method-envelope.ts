import { z } from 'zod';
import { CairnError } from '../errors';

/**
 * The input of a tool with several methods that run inside Cairn (Context, Memory, Fork):
 * `{"method", "arguments"}`; `union_id` is accepted and ignored, since none of them has a use for it.
 */
export function methodEnvelope<const M extends readonly [string, ...string[]]>(methods: M) {
  return z.object({
    method: z.enum(methods),
    union_id: z.string().optional(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  });
}

/** A method's arguments checked by its schema; a bad one is a `bad_request` naming each problem. */
export function methodArguments<S extends z.ZodType>(
  schema: S,
  value: unknown,
  tool: string,
  method: string,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
    .join('; ');
  throw new CairnError('bad_request', `Invalid arguments for ${tool} ${method}: ${issues}`);
}
