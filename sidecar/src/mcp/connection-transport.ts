import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '../log/logger';
import { MCP_LIMITS } from '../protocol/mcp';
import { createHttpTransport } from './http-transport';
import type { ResolvedMcpServer } from './mcp-connection';
import { checkMcpUrl } from './mcp-url';
import type { LoginWaiter } from './oauth/oauth-fetch';
import { StdioTransport } from './stdio-transport';

/** What a connection's transport reports back to it. */
export interface TransportHooks {
  /** A request's answer cannot arrive (too large, or its stream broke): fail that call now. */
  failRequest(id: string | number, message: string): void;
  /** The call a request belongs to, to wait in it for the user's login. */
  loginWaiter(id: string | number | null): LoginWaiter | null;
}

/**
 * The transport for a server: its process for stdio (answers bounded in size), or its endpoint for
 * Streamable HTTP (https, or http to this machine; with its OAuth login when it has one). Throws an Error
 * saying what is missing or wrong.
 */
export function openTransport(
  server: ResolvedMcpServer,
  hooks: TransportHooks,
  log: Logger,
): { transport: Transport; stdio: StdioTransport | null } {
  if (server.transport === 'stdio') {
    if (!server.program) throw new Error('no command is set');
    const stdio = new StdioTransport({
      program: server.program,
      args: server.args,
      cwd: server.cwd,
      env: server.env,
      windowsVerbatimArguments: server.windowsVerbatimArguments,
      maxMessageBytes: MCP_LIMITS.resultBytes,
    });
    stdio.onOversized = (id, bytes) => {
      const message = `the server's answer is ${(bytes / 1024 / 1024).toFixed(1)} MiB, over the ${MCP_LIMITS.resultBytes / 1024 / 1024} MiB limit for one result`;
      if (id !== null) hooks.failRequest(id, message);
      else log.warn('mcp message over the limit dropped', { bytes });
    };
    return { transport: stdio, stdio };
  }
  if (!server.url) throw new Error('no URL is set');
  const endpoint = new URL(checkMcpUrl(server.url));
  const login = server.oauth
    ? {
        oauth: server.oauth,
        hooks: { waiterFor: hooks.loginWaiter, loginWaitMs: server.loginWaitMs ?? 600_000 },
      }
    : null;
  const transport = createHttpTransport(
    endpoint,
    server.headers,
    MCP_LIMITS.resultBytes,
    { onRequestFailed: hooks.failRequest },
    login,
  );
  return { transport, stdio: null };
}
