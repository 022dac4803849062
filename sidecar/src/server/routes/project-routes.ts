import type { FastifyInstance } from 'fastify';
import { CreateProjectRequest, type Project, type ProjectList, UpdateProjectRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

export function registerProjectRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { services } = ctx;

  app.post('/api/projects', async (req, reply) => {
    const body = parse(CreateProjectRequest, req.body);
    return reply.code(201).send(services.projects.open(body.path));
  });

  app.get('/api/projects', async (): Promise<ProjectList> => ({ projects: services.projects.list() }));

  app.patch<IdParams>('/api/projects/:id', async (req): Promise<Project> => {
    const body = parse(UpdateProjectRequest, req.body);
    return services.projects.update(req.params.id, body);
  });

  app.get<IdParams>('/api/projects/:id/python', async (req) =>
    services.projectPython().describe(req.params.id),
  );

  app.delete<IdParams>('/api/projects/:id', async (req, reply) => {
    await services.projects.delete(req.params.id);
    return reply.code(204).send();
  });
}
