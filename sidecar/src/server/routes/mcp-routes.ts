import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { McpConfigService } from '../../agent/mcp-config-service';
import { McpImportService } from '../../agent/mcp-import-service';
import type { McpSessionService } from '../../agent/mcp-session-service';
import { testMcpServer } from '../../agent/mcp-test';
import { MCP_RESULT_FILE } from '../../agent/mcp-tools';
import { notFound } from '../../errors';
import {
  CreateMcpServerRequest,
  McpImportRequest,
  type McpServerList,
  type McpSessionStatus,
  type McpTestResult,
  SetMcpSecretsRequest,
  UpdateMcpServerRequest,
} from '../../protocol';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';
import { requirePart } from './conversation-only';

type IdParams = { Params: { id: string } };

/** MCP server configs, their secrets and tests, and a session's servers. */
export function registerMcpRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const config = (): McpConfigService => requirePart(ctx.mcpConfig, 'MCP servers');
  const sessions = (): McpSessionService => requirePart(ctx.mcp, 'MCP servers');
  const requireSession = (id: string) => {
    if (!ctx.store.sessions.get(id)) throw notFound('Session', id);
  };

  app.get('/api/mcp/servers', async (): Promise<McpServerList> => ({ servers: await config().list() }));

  app.post('/api/mcp/servers', async (req, reply) => {
    const service = config();
    return reply.code(201).send(await service.create(parse(CreateMcpServerRequest, req.body)));
  });

  app.get<IdParams>('/api/mcp/servers/:id', async (req) => config().get(req.params.id));

  app.patch<IdParams>('/api/mcp/servers/:id', async (req) => {
    const service = config();
    return service.update(req.params.id, parse(UpdateMcpServerRequest, req.body));
  });

  app.delete<IdParams>('/api/mcp/servers/:id', async (req, reply) => {
    await config().delete(req.params.id);
    return reply.code(204).send();
  });

  app.put<IdParams>('/api/mcp/servers/:id/secrets', async (req) => {
    const service = config();
    return service.setSecrets(req.params.id, parse(SetMcpSecretsRequest, req.body));
  });

  app.post<IdParams>('/api/mcp/servers/:id/test', async (req): Promise<McpTestResult> => {
    const row = config().row(req.params.id);
    return testMcpServer(row, {
      keychain: ctx.keychain,
      env: ctx.env,
      dataDir: ctx.dataDir,
      logger: ctx.logger,
    });
  });

  app.post('/api/mcp/import', async (req) => {
    const service = new McpImportService(ctx.store, config(), ctx.env);
    return service.run(parse(McpImportRequest, req.body));
  });

  app.get<IdParams>('/api/sessions/:id/mcp', async (req): Promise<McpSessionStatus> => {
    const service = sessions();
    requireSession(req.params.id);
    return service.status(req.params.id);
  });

  app.post<IdParams>('/api/sessions/:id/mcp/reset', async (req): Promise<McpSessionStatus> => {
    const service = sessions();
    requireSession(req.params.id);
    await service.reset(req.params.id, ctx.runtime.isSessionRunning(req.params.id));
    return service.status(req.params.id);
  });

  /** The images, audio and resources an MCP tool call returned, as a download. */
  app.get<IdParams>('/api/tool-calls/:id/mcp-result', async (req, reply) => {
    const call = ctx.store.toolCalls.get(req.params.id);
    if (!call) throw notFound('Tool call', req.params.id);
    const file = path.join(ctx.runtime.files.callDir(call.session_id, call.id), MCP_RESULT_FILE);
    if (!fs.existsSync(file)) throw notFound('MCP result of tool call', req.params.id);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${MCP_RESULT_FILE}"`)
      .header('cache-control', 'private, no-store')
      .send(fs.createReadStream(file));
  });
}
