import * as z from 'zod/mini';
import { ErrorInfo } from './errors';
import { CairnEvent } from './events';

/** WebSocket messages at /api/ws. */

export const WsClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticate'), token: z.string() }),
  z.object({
    type: z.literal('subscribe'),
    session_id: z.string(),
    after_seq: z._default(z.number().check(z.int(), z.gte(0)), 0),
  }),
  z.object({ type: z.literal('unsubscribe'), session_id: z.string() }),
]);
export type WsClientMessage = z.infer<typeof WsClientMessage>;

export const WsServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticated') }),
  z.object({ type: z.literal('subscribed'), session_id: z.string(), after_seq: z.number() }),
  z.object({ type: z.literal('event'), event: CairnEvent }),
  z.object({
    type: z.literal('error'),
    /** The session whose subscription failed (e.g. not_found: it was deleted); absent for a bad message. */
    session_id: z.optional(z.string()),
    error: ErrorInfo,
  }),
]);
export type WsServerMessage = z.infer<typeof WsServerMessage>;

/** Close code for a socket that did not authenticate in time or sent a wrong token. */
export const WS_CLOSE_UNAUTHENTICATED = 4401;
