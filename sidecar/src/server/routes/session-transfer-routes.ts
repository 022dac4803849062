import type { FastifyInstance } from 'fastify';
import { EXPORT_LIMIT_BYTES } from '../../application/sessions/session-export';
import { BranchSessionRequest, ExportSessionQuery, ImportSessionQuery, SessionExport } from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

/** Branching a session at a turn, exporting one, importing an export as a new session. */
export function registerSessionTransferRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { branching, sessionExport, sessionImport } = ctx.services;

  app.post<IdParams>('/api/sessions/:id/branch', async (req, reply) => {
    const body = parse(BranchSessionRequest, req.body);
    return reply.code(201).send(branching.branch(req.params.id, body.turn_id));
  });

  app.get<IdParams>('/api/sessions/:id/export', async (req, reply) => {
    const { format } = parse(ExportSessionQuery, req.query);
    if (format === 'json') {
      const data = sessionExport.json(req.params.id);
      return reply
        .header('content-disposition', `attachment; filename="${data.session.id}.cairn.json"`)
        .send(data);
    }
    const { filename, text } = sessionExport.markdown(req.params.id);
    return reply
      .type('text/markdown; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(text);
  });

  // An export carries every result and artifact: this route alone takes bodies up to the export limit.
  app.post('/api/sessions/import', { bodyLimit: EXPORT_LIMIT_BYTES + 1024 * 1024 }, async (req, reply) => {
    const query = parse(ImportSessionQuery, req.query);
    const data = parse(SessionExport, req.body);
    return reply.code(201).send(sessionImport.importSession(data, query.project_id ?? null));
  });
}
