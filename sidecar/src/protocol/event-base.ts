import * as z from 'zod/mini';

/** The fields the journal adds to every event. */
export const eventBase = {
  seq: z.number().check(z.int(), z.positive()),
  session_id: z.string(),
  turn_id: z.nullable(z.string()),
  time: z.string(),
};
