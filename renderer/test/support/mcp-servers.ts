import type { McpServer } from '../../../sidecar/src/protocol';

/** A saved MCP server as GET /api/mcp/servers shows it: a stdio one unless `patch` says otherwise. */
export function mcpServer(patch: Partial<McpServer> = {}): McpServer {
  return {
    id: 'srv1',
    enabled: false,
    name: 'everything',
    transport: 'stdio',
    command: 'node server.js stdio',
    env: {},
    url: null,
    headers: {},
    bearer_token: null,
    oauth: null,
    allow_tools: null,
    deny_tools: [],
    startup_timeout_sec: 30,
    tool_timeout_sec: 120,
    block_on_failure: false,
    redirect_uri: null,
    authorization_url: null,
    logged_in: false,
    token_storage: 'keychain',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...patch,
  };
}
