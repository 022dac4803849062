import { z } from 'zod';

/** The fields the journal adds to every event. */
export const eventBase = {
  seq: z.number().int().positive(),
  session_id: z.string(),
  turn_id: z.string().nullable(),
  time: z.string(),
};
