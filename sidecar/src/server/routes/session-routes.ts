import type { FastifyInstance } from 'fastify';
import { CairnError, notFound } from '../../errors';
import { CreateSessionRequest, ListSessionsQuery, UpdateSessionRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

export function registerSessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/sessions', async (req, reply) => {
    const body = parse(CreateSessionRequest, req.body);
    const projectId = body.project_id ?? null;
    if (projectId !== null) {
      if (ctx.conversationOnly) {
        throw new CairnError(
          'conversation_only',
          'This Cairn server runs conversation-only: sessions have no project.',
        );
      }
      if (!ctx.store.projects.get(projectId)) throw notFound('Project', projectId);
    }
    const session = ctx.store.sessions.create({ projectId, title: body.title, approval: body.approval });
    return reply.code(201).send(session);
  });

  app.get('/api/sessions', async (req) => {
    const query = parse(ListSessionsQuery, req.query);
    return { sessions: ctx.store.sessions.list(query.project_id) };
  });

  app.get<{ Params: { id: string } }>('/api/sessions/:id', async (req) => {
    const session = ctx.store.sessions.get(req.params.id);
    if (!session) throw notFound('Session', req.params.id);
    return session;
  });

  app.patch<{ Params: { id: string } }>('/api/sessions/:id', async (req) => {
    const patch = parse(UpdateSessionRequest, req.body);
    const session = ctx.store.sessions.update(req.params.id, patch);
    if (!session) throw notFound('Session', req.params.id);
    return session;
  });

  app.delete<{ Params: { id: string } }>('/api/sessions/:id', async (req, reply) => {
    await ctx.runtime.deleteSession(req.params.id);
    return reply.code(204).send();
  });
}
