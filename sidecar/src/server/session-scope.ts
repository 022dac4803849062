import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './server-context';

/** Routes that act on one session: everything under `/api/sessions/:id/`. */
export const SESSION_SCOPE = '/api/sessions/:id/';

/**
 * A request under a session that does not exist is answered 404 before anything else about it is read:
 * a client holding a stale session id must learn that, not that its paging cursor or kernel name was
 * malformed. Routes validate their query, body and other params in the handler, after this hook.
 */
export function requireSessionFirst(app: FastifyInstance, ctx: ServerContext): void {
  app.addHook('preHandler', async (req) => {
    if (!req.routeOptions.url?.startsWith(SESSION_SCOPE)) return;
    ctx.services.sessions.get((req.params as { id: string }).id);
  });
}
