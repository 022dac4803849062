import type { FastifyInstance } from 'fastify';
import { OAUTH_CALLBACK_PATH } from '../../application/mcp/mcp-oauth-service';
import {
  CreateMcpServerRequest,
  type McpAuthorizeResult,
  McpImportRequest,
  type McpServer,
  type McpServerList,
  type McpSessionStatus,
  type McpTestResult,
  SetMcpSecretsRequest,
  UpdateMcpServerRequest,
} from '../../protocol';
import { callbackPage } from '../oauth-callback-page';
import { parse } from '../parse';
import type { ServerContext } from '../server-context';

type IdParams = { Params: { id: string } };

/** MCP server configs, their secrets and tests, and a session's servers. */
export function registerMcpRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { services } = ctx;

  app.get(
    '/api/mcp/servers',
    async (): Promise<McpServerList> => ({ servers: await services.mcpServers().list() }),
  );

  app.post('/api/mcp/servers', async (req, reply) => {
    const config = services.mcpServers();
    return reply.code(201).send(await config.create(parse(CreateMcpServerRequest, req.body)));
  });

  app.get<IdParams>(
    '/api/mcp/servers/:id',
    async (req): Promise<McpServer> => services.mcpServers().get(req.params.id),
  );

  app.patch<IdParams>('/api/mcp/servers/:id', async (req): Promise<McpServer> => {
    const config = services.mcpServers();
    return config.update(req.params.id, parse(UpdateMcpServerRequest, req.body));
  });

  app.delete<IdParams>('/api/mcp/servers/:id', async (req, reply) => {
    await services.mcpServers().delete(req.params.id);
    return reply.code(204).send();
  });

  app.put<IdParams>('/api/mcp/servers/:id/secrets', async (req): Promise<McpServer> => {
    const config = services.mcpServers();
    return config.setSecrets(req.params.id, parse(SetMcpSecretsRequest, req.body));
  });

  app.post<IdParams>('/api/mcp/servers/:id/authorize', async (req): Promise<McpAuthorizeResult> => {
    const row = services.mcpServers().row(req.params.id);
    return services.mcpOAuth().authorize(row);
  });

  app.delete<IdParams>('/api/mcp/servers/:id/authorization', async (req): Promise<McpServer> => {
    const config = services.mcpServers();
    await services.mcpOAuth().logout(config.row(req.params.id));
    return config.get(req.params.id);
  });

  // Public (the browser coming back from the authorization server has no token): it takes only a state
  // Cairn issued, once, before it expires.
  app.get<{ Querystring: Record<string, string | undefined> }>(OAUTH_CALLBACK_PATH, async (req, reply) => {
    const outcome = await services.mcpOAuth().callback(req.query);
    return reply
      .code(outcome.ok ? 200 : 400)
      .type('text/html; charset=utf-8')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .header('cache-control', 'no-store')
      .send(callbackPage(outcome));
  });

  app.post<IdParams>(
    '/api/mcp/servers/:id/test',
    async (req): Promise<McpTestResult> => services.mcpTest().test(req.params.id),
  );

  app.post('/api/mcp/import', async (req) => {
    const importer = services.mcpImport();
    return importer.run(parse(McpImportRequest, req.body));
  });

  app.get<IdParams>(
    '/api/sessions/:id/mcp',
    async (req): Promise<McpSessionStatus> => services.mcpSessions().status(req.params.id),
  );

  app.post<IdParams>(
    '/api/sessions/:id/mcp/reset',
    async (req): Promise<McpSessionStatus> => services.mcpSessions().reset(req.params.id),
  );

  /** The images, audio and resources an MCP tool call returned, as a download. */
  app.get<IdParams>('/api/tool-calls/:id/mcp-result', async (req, reply) => {
    const result = services.toolCalls.mcpResult(req.params.id);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${result.name}"`)
      .header('cache-control', 'private, no-store')
      .send(result.open());
  });
}
