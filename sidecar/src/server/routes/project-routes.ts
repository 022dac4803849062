import type { FastifyInstance } from 'fastify';
import { openProject } from '../../agent/project-service';
import { CairnError } from '../../errors';
import { CreateProjectRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

export function registerProjectRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const refuseWithoutProjects = () => {
    if (ctx.conversationOnly) {
      throw new CairnError(
        'conversation_only',
        'This Cairn server runs conversation-only: it has no projects.',
      );
    }
  };

  app.post('/api/projects', async (req, reply) => {
    refuseWithoutProjects();
    const body = parse(CreateProjectRequest, req.body);
    return reply.code(201).send(openProject(ctx.store, body.path));
  });

  app.get('/api/projects', async () => {
    refuseWithoutProjects();
    return { projects: ctx.store.projects.list() };
  });

  app.delete<{ Params: { id: string } }>('/api/projects/:id', async (req, reply) => {
    refuseWithoutProjects();
    await ctx.runtime.deleteProject(req.params.id);
    return reply.code(204).send();
  });
}
