import type { FastifyInstance } from 'fastify';
import {
  CreateExperienceRequest,
  type Experience,
  type ExperienceList,
  UpdateExperienceRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

/** Experiences: a session's and a project's lists, adding, editing or moving one, deleting one. */
export function registerExperienceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { experiences } = ctx.services;

  app.get<IdParams>(
    '/api/sessions/:id/experiences',
    async (req): Promise<ExperienceList> => ({ experiences: experiences.listForSession(req.params.id) }),
  );

  app.post<IdParams>('/api/sessions/:id/experiences', async (req, reply) => {
    const body = parse(CreateExperienceRequest, req.body);
    const created: Experience = experiences.addToSession(req.params.id, body, 'user');
    return reply.code(201).send(created);
  });

  app.get<IdParams>(
    '/api/projects/:id/experiences',
    async (req): Promise<ExperienceList> => ({ experiences: experiences.listForProject(req.params.id) }),
  );

  app.post<IdParams>('/api/projects/:id/experiences', async (req, reply) => {
    const body = parse(CreateExperienceRequest, req.body);
    const created: Experience = experiences.addToProject(req.params.id, body);
    return reply.code(201).send(created);
  });

  app.patch<IdParams>(
    '/api/experiences/:id',
    async (req): Promise<Experience> =>
      experiences.update(req.params.id, parse(UpdateExperienceRequest, req.body)),
  );

  app.delete<IdParams>('/api/experiences/:id', async (req, reply) => {
    experiences.remove(req.params.id);
    return reply.code(204).send();
  });
}
