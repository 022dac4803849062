import * as z from 'zod/mini';

/** A page's `limit` in a query string: a whole number from 1 to `max`, `fallback` when absent. */
export const pageLimit = (max: number, fallback: number) =>
  z._default(
    z.coerce
      .number()
      .check(
        z.int('limit must be a whole number'),
        z.gte(1, `limit must be between 1 and ${max}`),
        z.lte(max, `limit must be between 1 and ${max}`),
      ),
    fallback,
  );
