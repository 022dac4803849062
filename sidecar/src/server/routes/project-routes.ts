import type { FastifyInstance } from 'fastify';
import { openProject } from '../../agent/project-service';
import { CairnError } from '../../errors';
import { CreateProjectRequest, UpdateProjectRequest } from '../../protocol';
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

  /** Python kernels are off in conversation-only mode, which has no projects either. */
  const kernels = () => {
    refuseWithoutProjects();
    if (!ctx.kernels) throw new CairnError('conversation_only', 'Python kernels are off on this server.');
    return ctx.kernels;
  };

  app.patch<{ Params: { id: string } }>('/api/projects/:id', async (req) => {
    const service = kernels();
    const body = parse(UpdateProjectRequest, req.body);
    return service.setProjectPython(req.params.id, body.python_path);
  });

  app.get<{ Params: { id: string } }>('/api/projects/:id/python', async (req) => {
    return kernels().projectPython(req.params.id);
  });

  app.delete<{ Params: { id: string } }>('/api/projects/:id', async (req, reply) => {
    refuseWithoutProjects();
    await ctx.runtime.deleteProject(req.params.id);
    return reply.code(204).send();
  });
}
