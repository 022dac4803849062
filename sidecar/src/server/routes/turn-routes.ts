import type { FastifyInstance } from 'fastify';
import { listTurnPage } from '../../agent/turn-history';
import { notFound } from '../../errors';
import { ListEventsQuery, ListTurnsQuery, StartTurnRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

export function registerTurnRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const requireSession = (id: string) => {
    if (!ctx.store.sessions.get(id)) throw notFound('Session', id);
  };

  app.post<{ Params: { id: string } }>('/api/sessions/:id/turns', async (req, reply) => {
    const body = parse(StartTurnRequest, req.body);
    const { turn } = ctx.runtime.startTurn(req.params.id, body.prompt, body.request_id);
    return reply.code(202).send(turn);
  });

  app.get<{ Params: { id: string } }>('/api/sessions/:id/turns', async (req) => {
    requireSession(req.params.id);
    const query = parse(ListTurnsQuery, req.query);
    return listTurnPage(ctx.store, req.params.id, query.limit, query.before);
  });

  app.get<{ Params: { id: string } }>('/api/turns/:id', async (req) => {
    const turn = ctx.store.turns.get(req.params.id);
    if (!turn) throw notFound('Turn', req.params.id);
    return turn;
  });

  app.post<{ Params: { id: string } }>('/api/turns/:id/cancel', async (req) =>
    ctx.runtime.cancelTurn(req.params.id),
  );

  app.get<{ Params: { id: string } }>('/api/sessions/:id/events', async (req) => {
    requireSession(req.params.id);
    const query = parse(ListEventsQuery, req.query);
    const prefix = query.type_prefix;
    if (query.turn_id !== undefined) {
      const events = ctx.store.events.forTurn(req.params.id, query.turn_id);
      return {
        events: prefix === undefined ? events : events.filter((e) => e.type.startsWith(prefix)),
        has_more: false,
      };
    }
    // One extra row tells whether the client should ask again from the last seq it got.
    const events = ctx.store.events.after(req.params.id, query.after, query.limit + 1, prefix);
    return { events: events.slice(0, query.limit), has_more: events.length > query.limit };
  });
}
