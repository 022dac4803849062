import type * as z from 'zod/mini';
import { CairnError } from '../errors';

/** Validates input with its schema (mini or classic zod alike); a failure is a 400 that says which field and why. */
export function parse<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  throw new CairnError('bad_request', `Invalid request: ${detail}`);
}
