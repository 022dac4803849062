import type { FastifyInstance } from 'fastify';
import {
  CreateModelRequest,
  type ModelConfig,
  type ModelList,
  SetModelKeyRequest,
  UpdateModelRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

export function registerModelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { models } = ctx.services;

  app.get('/api/models', async (): Promise<ModelList> => models.list());

  app.post('/api/models', async (req, reply) => {
    const body = parse(CreateModelRequest, req.body);
    return reply.code(201).send(await models.create(body));
  });

  app.patch<IdParams>(
    '/api/models/:id',
    async (req): Promise<ModelConfig> => models.update(req.params.id, parse(UpdateModelRequest, req.body)),
  );

  app.delete<IdParams>('/api/models/:id', async (req, reply) => {
    await models.delete(req.params.id);
    return reply.code(204).send();
  });

  app.post<IdParams>(
    '/api/models/:id/activate',
    async (req): Promise<ModelConfig> => models.activate(req.params.id),
  );

  app.put<IdParams>('/api/models/:id/key', async (req, reply) => {
    const body = parse(SetModelKeyRequest, req.body);
    await models.setKey(req.params.id, body.key);
    return reply.code(204).send();
  });
}
