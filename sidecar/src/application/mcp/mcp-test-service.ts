import fs from 'node:fs';
import path from 'node:path';
import { CairnError } from '../../errors';
import type { Logger } from '../../log/logger';
import { McpConnection } from '../../mcp/mcp-connection';
import { resolveServer } from '../../mcp/resolve-server';
import type { McpTestResult } from '../../protocol';
import type { Keychain } from '../../secrets/keychain';
import type { McpServerRow } from '../../store/mcp-servers-repo';
import { childEnv } from '../../tools/child-env';
import type { McpConfigService } from './mcp-config-service';
import type { McpOAuthService } from './mcp-oauth-service';
import { mcpSecretAccount } from './mcp-secret-account';

/**
 * "Test connection": starts or connects to the server, runs initialize and tools/list only, and reports
 * what it was started with (program, arguments, folder, env names and their sources). Nothing else is
 * called; the server is stopped before answering. It runs in a scratch folder, as in a session without a
 * project.
 */
export class McpTestService {
  constructor(
    private readonly options: {
      config: McpConfigService;
      oauth: McpOAuthService;
      keychain: Keychain;
      env: NodeJS.ProcessEnv;
      dataDir: string;
      logger: Logger;
    },
  ) {}

  test(serverId: string): Promise<McpTestResult> {
    return testMcpServer(this.options.config.row(serverId), this.options);
  }
}

async function testMcpServer(
  row: McpServerRow,
  options: {
    oauth: McpOAuthService;
    keychain: Keychain;
    env: NodeJS.ProcessEnv;
    dataDir: string;
    logger: Logger;
  },
): Promise<McpTestResult> {
  const cwd = path.join(options.dataDir, 'mcp', 'scratch');
  fs.mkdirSync(cwd, { recursive: true, mode: 0o700 });
  const {
    server: resolved,
    envSources,
    oauthClient,
  } = await resolveServer(row.config, {
    serverId: row.id,
    cwd,
    baseEnv: childEnv(options.env),
    lookupEnv: options.env,
    keychain: options.keychain,
    secretAccount: mcpSecretAccount,
  });
  const server = options.oauth.attach(row, resolved, oauthClient);
  let connection: McpConnection;
  try {
    connection = await McpConnection.connect(server, {
      logger: options.logger.child({ mcp_server: row.config.name }),
    });
  } catch (err) {
    throw new CairnError('mcp_unavailable', err instanceof Error ? err.message : String(err), { cause: err });
  }
  try {
    return {
      ok: true,
      server_info: connection.serverInfo,
      program: server.program,
      args: server.args,
      cwd: server.cwd,
      env: envSources,
      tools: connection.tools.map((t) => ({ name: t.name, description: t.description, allowed: t.allowed })),
    };
  } finally {
    await connection.close();
  }
}
