import type { FastifyInstance } from 'fastify';
import {
  type ToolCall,
  type ToolCallOutput,
  ToolCallOutputQuery,
  type ToolRuntimeInfo,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

/** A session's background calls and loaded tools; a call's output pieces; cancelling a call. */
export function registerToolRuntimeRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { toolRuntime } = ctx.services;

  app.get<IdParams>(
    '/api/sessions/:id/tool-runtime',
    async (req): Promise<ToolRuntimeInfo> => toolRuntime.info(req.params.id),
  );

  app.get<IdParams>(
    '/api/tool-calls/:id/output',
    async (req): Promise<ToolCallOutput> =>
      toolRuntime.output(req.params.id, parse(ToolCallOutputQuery, req.query)),
  );

  app.post<IdParams>(
    '/api/tool-calls/:id/cancel',
    async (req): Promise<ToolCall> => toolRuntime.cancel(req.params.id),
  );
}
