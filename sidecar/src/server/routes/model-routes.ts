import type { FastifyInstance } from 'fastify';
import { ModelService } from '../../agent/model-service';
import { modelEnvOverrides } from '../../agent/model-settings';
import { CreateModelRequest, SetModelKeyRequest, UpdateModelRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

export function registerModelRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const models = new ModelService(ctx.store, ctx.keychain);

  app.get('/api/models', async () => ({
    models: await models.list(),
    env_overrides: modelEnvOverrides(ctx.env),
  }));

  app.post('/api/models', async (req, reply) => {
    const body = parse(CreateModelRequest, req.body);
    return reply.code(201).send(await models.create(body));
  });

  app.patch<{ Params: { id: string } }>('/api/models/:id', async (req) =>
    models.update(req.params.id, parse(UpdateModelRequest, req.body)),
  );

  app.delete<{ Params: { id: string } }>('/api/models/:id', async (req, reply) => {
    await models.delete(req.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>('/api/models/:id/activate', async (req) =>
    models.activate(req.params.id),
  );

  app.put<{ Params: { id: string } }>('/api/models/:id/key', async (req, reply) => {
    const body = parse(SetModelKeyRequest, req.body);
    await models.setKey(req.params.id, body.key);
    return reply.code(204).send();
  });
}
