// Cairn's side of an MCP login, in this test process: the OAuth service with a keychain held in memory (the
// stand-in for the OS keychain, which the server-level test uses for real), a loopback listener that hands
// the callback to the service as the sidecar's route does, and a server config pointing at the fixture.
import { McpOAuthService } from '../../../src/application/mcp/mcp-oauth-service';
import { mcpSecretAccount } from '../../../src/application/mcp/mcp-secret-account';
import { silentLogger } from '../../../src/log/logger';
import { McpConnection } from '../../../src/mcp/mcp-connection';
import { resolveServer } from '../../../src/mcp/resolve-server';
import type { McpOAuthInput } from '../../../src/protocol';
import type { Keychain } from '../../../src/secrets/keychain';
import type { McpServerRow } from '../../../src/store/mcp-servers-repo';
import { type LoopbackServer, listenOnLoopback } from '../../support/loopback-server';

export interface ClientBed {
  oauth: McpOAuthService;
  /** What the keychain holds, by account. */
  keychain: Map<string, string>;
  callback: LoopbackServer;
  redirectUri: string;
  /** A server config for `url`, with `oauth` settings (and secrets by name, as PUT …/secrets sets them). */
  row(url: string, oauth?: McpOAuthInput | null, id?: string): McpServerRow;
  /** Connects the way a session does; rejects with McpAuthRequiredError while a login is needed. */
  connect(row: McpServerRow, toolTimeoutMs?: number): Promise<McpConnection>;
  close(): Promise<void>;
}

export async function startClientBed(options: { loginWaitMs?: number } = {}): Promise<ClientBed> {
  const held = new Map<string, string>();
  const keychain: Keychain = {
    get: async (account) => held.get(account) ?? null,
    set: async (account, secret) => {
      held.set(account, secret);
    },
    delete: async (account) => held.delete(account),
  };
  const oauth = new McpOAuthService({
    keychain,
    env: {},
    logger: silentLogger,
    loginWaitMs: options.loginWaitMs ?? 120_000,
  });
  const callback = await listenOnLoopback(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const outcome = await oauth.callback(Object.fromEntries(url.searchParams));
    res.writeHead(outcome.ok ? 200 : 400, { 'content-type': 'text/plain' }).end(outcome.message);
  });
  oauth.setCallbackBase(callback.url);
  const connections: McpConnection[] = [];
  return {
    oauth,
    keychain: held,
    callback,
    redirectUri: oauth.redirectUri!,
    row: (url, oauthConfig = null, id = 'mcp_oauth_test') => ({
      id,
      enabled: true,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      config: {
        name: 'protected',
        transport: 'streamable_http',
        command: null,
        env: {},
        url,
        headers: {},
        bearer_token: null,
        oauth: oauthConfig,
        allow_tools: null,
        deny_tools: [],
        startup_timeout_sec: 30,
        tool_timeout_sec: 60,
        block_on_failure: false,
      },
    }),
    async connect(row, toolTimeoutMs) {
      const { server, oauthClient } = await resolveServer(row.config, {
        serverId: row.id,
        cwd: '.',
        baseEnv: {},
        lookupEnv: {},
        keychain,
        secretAccount: mcpSecretAccount,
      });
      const attached = oauth.attach(row, server, oauthClient);
      const conn = await McpConnection.connect(
        toolTimeoutMs === undefined ? attached : { ...attached, toolTimeoutMs },
      );
      connections.push(conn);
      return conn;
    },
    async close() {
      await Promise.all(connections.map((c) => c.close()));
      await callback.close();
    },
  };
}
