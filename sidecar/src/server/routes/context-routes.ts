import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CompactRequest,
  type CompactResponse,
  type ContextInfo,
  ContextInfoQuery,
  type ContextVersionList,
  ContextVersionQuery,
  type ContextVersionView,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };
type VersionParams = { Params: { id: string; number: string } };

const VersionNumber = z.coerce.number().int('the version is a whole number').min(1, 'versions start at 1');

export function registerContextRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { context } = ctx.services;

  app.get<IdParams>(
    '/api/sessions/:id/context',
    async (req): Promise<ContextInfo> =>
      context.info(req.params.id, parse(ContextInfoQuery, req.query ?? {})),
  );

  app.get<IdParams>(
    '/api/sessions/:id/context/versions',
    async (req): Promise<ContextVersionList> => context.versions(req.params.id),
  );

  app.get<VersionParams>(
    '/api/sessions/:id/context/versions/:number',
    async (req): Promise<ContextVersionView> =>
      context.version(
        req.params.id,
        parse(VersionNumber, req.params.number),
        parse(ContextVersionQuery, req.query),
      ),
  );

  app.post<IdParams>('/api/sessions/:id/context/compact', async (req, reply): Promise<CompactResponse> => {
    // A client that goes away before the answer cancels the compaction: the context then stays as it was.
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    return context.compactNow(req.params.id, parse(CompactRequest, req.body ?? {}), controller.signal);
  });
}
