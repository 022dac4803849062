// The protected MCP server of the OAuth test bed: the SDK's McpServer over a stateful Streamable HTTP
// transport, guarded by the SDK's `requireBearerAuth`, with protected-resource metadata (RFC 9728) served
// by the SDK's metadata handler. Its tools: `whoami` (the token's client and scopes) and `admin`, which needs
// one more scope and answers 403 insufficient_scope (MCP 2025-11-25 step-up) when the token lacks it.
import crypto from 'node:crypto';
import type http from 'node:http';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordWellKnown, type WellKnownRecord } from './oauth-authorization-server';
import type { InMemoryOAuthProvider } from './oauth-provider';

export type PrmLocation = 'path' | 'root' | 'both';

export interface ProtectedMcpOptions {
  /** The PRM's `scopes_supported` (left out when undefined). */
  scopesSupported: string[] | undefined;
  /** Scopes every request needs; they also go into the 401's `WWW-Authenticate` as `scope="..."`. */
  requiredScopes: string[];
  /** Where the PRM is served: /.well-known/oauth-protected-resource/mcp ('path'), without /mcp ('root'). */
  prmLocation: PrmLocation;
  /** Put `resource_metadata` into `WWW-Authenticate`; without it clients must probe the well-known paths. */
  advertiseResourceMetadata: boolean;
  /** The extra scope the `admin` tool needs. */
  adminScope: string;
}

/** What the test can change while the fixture runs. */
export interface StepUpBehaviour {
  /** `admin` answers 403 insufficient_scope whatever the token's scopes (to test a client's retry limit). */
  stepUpAlways: boolean;
}

/** One HTTP request to the MCP endpoint: which token it carried and what it got. */
export interface McpRequestRecord {
  method: string;
  /** The bearer token sent, or null. */
  token: string | null;
  /** JSON-RPC methods in the body (POST only). */
  rpcMethods: string[];
  /** Set once the answer's head is sent. */
  status: number | null;
  /** The `WWW-Authenticate` header answered, if any. */
  wwwAuthenticate: string | null;
}

interface Req extends http.IncomingMessage {
  body?: unknown;
  auth?: AuthInfo;
  path: string;
}
interface Res extends http.ServerResponse {
  json(body: unknown): Res;
  status(code: number): Res;
  set(name: string, value: string): Res;
}
type Next = (err?: unknown) => void;

interface RpcMessage {
  method?: unknown;
  params?: { name?: unknown };
}

function messages(body: unknown): RpcMessage[] {
  const list = Array.isArray(body) ? body : [body];
  return list.filter((m): m is RpcMessage => typeof m === 'object' && m !== null);
}

function text(value: unknown) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }] };
}

function newMcpServer(): McpServer {
  const server = new McpServer({ name: 'oauth-protected-fixture', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { description: 'Says which client and scopes the access token carries' },
    (extra) => text({ client_id: extra.authInfo?.clientId ?? null, scopes: extra.authInfo?.scopes ?? [] }),
  );
  // Reached only past the step-up middleware, i.e. with the admin scope.
  server.registerTool('admin', { description: 'Needs the admin scope' }, () => text({ admin: 'ok' }));
  return server;
}

export interface ProtectedMcp {
  app: http.RequestListener;
  /** The URL named in `WWW-Authenticate`'s resource_metadata (also when that is left out). */
  resourceMetadataUrl: string;
  close(): Promise<void>;
}

/** The express app of the MCP server at `mcpUrl` (http://127.0.0.1:PORT/mcp), trusting `provider`'s tokens. */
export function protectedMcpApp(
  mcpUrl: string,
  issuer: string,
  provider: InMemoryOAuthProvider,
  options: ProtectedMcpOptions,
  behaviour: StepUpBehaviour,
  records: { mcp: McpRequestRecord[]; wellKnown: WellKnownRecord[] },
): ProtectedMcp {
  const origin = new URL(mcpUrl).origin;
  const pathPrm = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const rootPrm = `${origin}/.well-known/oauth-protected-resource`;
  const resourceMetadataUrl = options.prmLocation === 'root' ? rootPrm : pathPrm;
  const app = createMcpExpressApp({ host: '127.0.0.1' });
  app.use(recordWellKnown('mcp', records.wellKnown));

  const prm = {
    resource: mcpUrl,
    authorization_servers: [issuer],
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
    resource_name: 'OAuth test MCP server',
  };
  // Not mcpAuthMetadataRouter: it also serves the AS metadata on this origin, which would hide a client
  // that looks for the authorization server here instead of at `authorization_servers`.
  if (options.prmLocation !== 'root')
    app.use('/.well-known/oauth-protected-resource/mcp', metadataHandler(prm));
  if (options.prmLocation !== 'path') app.use('/.well-known/oauth-protected-resource', metadataHandler(prm));

  app.use('/mcp', (req: Req, res: Res, next: Next) => {
    const auth = req.headers.authorization ?? '';
    const record: McpRequestRecord = {
      method: req.method ?? '',
      token: /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? null,
      rpcMethods: messages(req.body).flatMap((m) => (typeof m.method === 'string' ? [m.method] : [])),
      status: null,
      wwwAuthenticate: null,
    };
    records.mcp.push(record);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Res;
    res.writeHead = ((...args: unknown[]) => {
      record.status = args[0] as number;
      const www = res.getHeader('www-authenticate');
      record.wwwAuthenticate = typeof www === 'string' ? www : null;
      return writeHead(...args);
    }) as Res['writeHead'];
    next();
  });

  app.use(
    '/mcp',
    requireBearerAuth({
      verifier: provider,
      requiredScopes: options.requiredScopes,
      ...(options.advertiseResourceMetadata ? { resourceMetadataUrl } : {}),
      expectedResource: new URL(mcpUrl),
    }),
  );

  // Step-up: a scope per tool needs the JSON-RPC body, so it is checked here, before the transport.
  app.use('/mcp', (req: Req, res: Res, next: Next) => {
    const callsAdmin = messages(req.body).some(
      (m) => m.method === 'tools/call' && m.params?.name === 'admin',
    );
    const scopes = req.auth?.scopes ?? [];
    if (!callsAdmin || (!behaviour.stepUpAlways && scopes.includes(options.adminScope))) return next();
    const wanted = [...new Set([...scopes, options.adminScope])].join(' ');
    const metadata = options.advertiseResourceMetadata ? `, resource_metadata="${resourceMetadataUrl}"` : '';
    res.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${wanted}"${metadata}`);
    res
      .status(403)
      .json({ error: 'insufficient_scope', error_description: `The admin tool needs ${options.adminScope}` });
  });

  // Stateful, as most real servers are: one transport and McpServer per session id.
  const transports = new Map<string, StreamableHTTPServerTransport>();
  app.all('/mcp', async (req: Req, res: Res) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res, req.body);
    if (sessionId !== undefined || req.method !== 'POST' || !isInitializeRequest(req.body)) {
      return res.status(sessionId ? 404 : 400).json({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: sessionId ? 'Unknown session' : 'Initialize first' },
      });
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await newMcpServer().connect(transport);
    return transport.handleRequest(req, res, req.body);
  });

  return {
    app: app as http.RequestListener,
    resourceMetadataUrl,
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close()));
    },
  };
}
