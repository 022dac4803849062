import type { FastifyInstance } from 'fastify';
import {
  type EventList,
  ListEventsQuery,
  ListTurnsQuery,
  StartTurnRequest,
  type Turn,
  type TurnPage,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

export function registerTurnRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { turns } = ctx.services;

  app.post<IdParams>('/api/sessions/:id/turns', async (req, reply) => {
    const body = parse(StartTurnRequest, req.body);
    return reply.code(202).send(turns.start(req.params.id, body));
  });

  app.get<IdParams>(
    '/api/sessions/:id/turns',
    async (req): Promise<TurnPage> => turns.page(req.params.id, parse(ListTurnsQuery, req.query)),
  );

  app.get<IdParams>('/api/turns/:id', async (req): Promise<Turn> => turns.get(req.params.id));

  app.post<IdParams>('/api/turns/:id/cancel', async (req): Promise<Turn> => turns.cancel(req.params.id));

  app.get<IdParams>(
    '/api/sessions/:id/events',
    async (req): Promise<EventList> => turns.events(req.params.id, parse(ListEventsQuery, req.query)),
  );
}
