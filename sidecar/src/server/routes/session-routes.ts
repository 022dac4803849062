import type { FastifyInstance } from 'fastify';
import {
  CreateSessionRequest,
  ListSessionsQuery,
  type Session,
  type SessionDetail,
  type SessionList,
  UpdateSessionRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

export function registerSessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { sessions } = ctx.services;

  app.post('/api/sessions', async (req, reply) => {
    const body = parse(CreateSessionRequest, req.body);
    return reply.code(201).send(sessions.create(body));
  });

  app.get(
    '/api/sessions',
    async (req): Promise<SessionList> => ({ sessions: sessions.list(parse(ListSessionsQuery, req.query)) }),
  );

  app.get<IdParams>(
    '/api/sessions/:id',
    async (req): Promise<SessionDetail> => sessions.detail(req.params.id),
  );

  app.patch<IdParams>(
    '/api/sessions/:id',
    async (req): Promise<Session> => sessions.update(req.params.id, parse(UpdateSessionRequest, req.body)),
  );

  app.delete<IdParams>('/api/sessions/:id', async (req, reply) => {
    await sessions.delete(req.params.id);
    return reply.code(204).send();
  });
}
