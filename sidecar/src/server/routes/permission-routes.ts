import type { FastifyInstance } from 'fastify';
import {
  CreatePermissionRuleRequest,
  ListPermissionRulesQuery,
  type PermissionDecision,
  type PermissionRule,
  type PermissionRuleList,
  TestPermissionRequest,
  UpdatePermissionRuleRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

/** Permission rules: list, add, edit, delete, and what they decide for a call. */
export function registerPermissionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { permissions } = ctx.services;

  app.get(
    '/api/permission-rules',
    async (req): Promise<PermissionRuleList> => ({
      rules: permissions.list(parse(ListPermissionRulesQuery, req.query)),
    }),
  );

  app.post('/api/permission-rules', async (req, reply) => {
    const created: PermissionRule = permissions.create(parse(CreatePermissionRuleRequest, req.body));
    return reply.code(201).send(created);
  });

  app.post(
    '/api/permission-rules/test',
    async (req): Promise<PermissionDecision> => permissions.test(parse(TestPermissionRequest, req.body)),
  );

  app.patch<IdParams>(
    '/api/permission-rules/:id',
    async (req): Promise<PermissionRule> =>
      permissions.update(req.params.id, parse(UpdatePermissionRuleRequest, req.body)),
  );

  app.delete<IdParams>('/api/permission-rules/:id', async (req, reply) => {
    permissions.remove(req.params.id);
    return reply.code(204).send();
  });
}
