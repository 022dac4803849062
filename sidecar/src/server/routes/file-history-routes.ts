import type { FastifyInstance } from 'fastify';
import { type FileChanges, type RevertResult, RevertTurnRequest } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

/** What turns changed in the project's files (a turn's, a session's total), and reverting a turn. */
export function registerFileHistoryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { fileHistory } = ctx.services;

  app.get<IdParams>(
    '/api/turns/:id/changes',
    async (req): Promise<FileChanges> => fileHistory.turnChanges(req.params.id),
  );

  app.get<IdParams>(
    '/api/sessions/:id/changes',
    async (req): Promise<FileChanges> => fileHistory.sessionChanges(req.params.id),
  );

  app.post<IdParams>(
    '/api/turns/:id/revert',
    async (req): Promise<RevertResult> =>
      fileHistory.revert(req.params.id, parse(RevertTurnRequest, req.body ?? {})),
  );
}
