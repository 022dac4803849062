// A local OAuth test bed for MCP logins, all on 127.0.0.1 at random ports: an authorization server
// (oauth-authorization-server.ts, oauth-provider.ts) and an MCP server that trusts its tokens
// (oauth-protected-mcp.ts), both built from the official SDK's server-side auth helpers. Every request to
// either is recorded, so a test can assert what a client sent (auth method, resource, PKCE, state, token).
import http from 'node:http';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { listenOnFreePort } from '../../support/loopback-server';
import {
  authorizationServerApp,
  type OAuthRequestRecord,
  type WellKnownRecord,
} from './oauth-authorization-server';
import {
  type McpRequestRecord,
  type PrmLocation,
  protectedMcpApp,
  type StepUpBehaviour,
} from './oauth-protected-mcp';
import {
  type AuthorizationBehaviour,
  InMemoryOAuthProvider,
  type IssuedToken,
  type PreRegisteredClient,
  type TokenEndpointAuthMethod,
} from './oauth-provider';

export type { IssuedToken, McpRequestRecord, OAuthRequestRecord, PreRegisteredClient, WellKnownRecord };

export interface OAuthFixtureOptions {
  /** Dynamic client registration (RFC 7591) at /register; default true. */
  dynamicRegistration?: boolean;
  /** Clients known from the start; more with `addClient`. */
  clients?: PreRegisteredClient[];
  /** The AS metadata's token_endpoint_auth_methods_supported; default all three. */
  tokenEndpointAuthMethods?: TokenEndpointAuthMethod[];
  /** Advertise `client_id_metadata_document_supported: true` and accept client ids that are loopback URLs. */
  clientIdMetadataDocuments?: boolean;
  /** AS metadata only through OpenID Connect discovery; RFC 8414's well-known answers 404. */
  oidcDiscoveryOnly?: boolean;
  /** The PRM's (and AS metadata's) scopes_supported; default none. */
  scopesSupported?: string[];
  /** Scopes every MCP request needs, also sent as `scope="..."` in the 401's WWW-Authenticate. */
  requiredScopes?: string[];
  /** Where the protected-resource metadata is served; default 'path' (…/oauth-protected-resource/mcp). */
  prmLocation?: PrmLocation;
  /** Name the PRM in WWW-Authenticate (`resource_metadata`); default true. */
  advertiseResourceMetadata?: boolean;
  /** The scope the `admin` tool needs; default 'admin'. */
  adminScope?: string;
  /** `expires_in` of access tokens; default 3600. */
  accessTokenLifetimeSeconds?: number;
  /** Answer refresh tokens (rotated on use); default true. */
  issueRefreshTokens?: boolean;
  denyAuthorization?: boolean;
  stepUpAlways?: boolean;
}

export interface OAuthFixture {
  /** The issuer: http://127.0.0.1:PORT/ (the PRM's authorization_servers[0]). */
  asUrl: string;
  /** The MCP endpoint: http://127.0.0.1:PORT/mcp. */
  mcpUrl: string;
  /** The resource (RFC 8707) that authorization and token requests must name: equals mcpUrl. */
  resource: string;
  /** The URL WWW-Authenticate's resource_metadata names (when advertised). */
  resourceMetadataUrl: string;
  /** Authorization, token and registration requests, in order. */
  requests: OAuthRequestRecord[];
  /** Requests to the MCP endpoint, in order, with the token each carried. */
  mcpRequests: McpRequestRecord[];
  /** Requests to /.well-known/… on either server (discovery probes), in order. */
  wellKnownRequests: WellKnownRecord[];
  /** Client ID metadata documents fetched (their URLs). */
  clientMetadataFetches: string[];
  /** Live switches: change them between steps of a test. */
  behaviour: AuthorizationBehaviour & StepUpBehaviour;
  addClient(client: PreRegisteredClient): void;
  /** Every client the server knows (pre-registered, dynamic, metadata documents resolved). */
  clients(): OAuthClientInformationFull[];
  /** Clients that registered dynamically, in order. */
  registeredClients(): OAuthClientInformationFull[];
  /** Every access token issued, in order. */
  tokensIssued(): IssuedToken[];
  /** MCP requests that carried `token`. */
  requestsWithToken(token: string): McpRequestRecord[];
  /** Access tokens expire now (a refresh is needed); refresh tokens still work. */
  expireTokens(): void;
  /** Access and refresh tokens are forgotten (a new login is needed). */
  revokeAll(): void;
  close(): Promise<void>;
}

async function listen(): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer();
  const port = await listenOnFreePort(server);
  return { server, origin: `http://127.0.0.1:${port}` };
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

// A client id that is a URL names its own metadata document (draft-ietf-oauth-client-id-metadata-document).
// Real servers demand https; here only loopback http is fetched, so tests never reach the network.
async function fetchClientMetadata(clientId: string, fetched: string[]) {
  const url = new URL(clientId);
  if (!LOOPBACK.has(url.hostname)) return undefined;
  fetched.push(clientId);
  const res = await fetch(url, { redirect: 'error' });
  if (!res.ok) return undefined;
  const doc = (await res.json()) as Partial<OAuthClientInformationFull>;
  if (doc.client_id !== clientId || !Array.isArray(doc.redirect_uris)) return undefined;
  return { ...doc, client_id: clientId, token_endpoint_auth_method: 'none' } as OAuthClientInformationFull;
}

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  // Both listen first: each app needs the other's URL (the PRM names the issuer; tokens name the resource).
  const as = await listen();
  const mcp = await listen();
  const asUrl = `${as.origin}/`;
  const mcpUrl = `${mcp.origin}/mcp`;
  const advertisedAuthMethods = options.tokenEndpointAuthMethods ?? [
    'client_secret_basic',
    'client_secret_post',
    'none',
  ];
  const behaviour = {
    denyAuthorization: options.denyAuthorization ?? false,
    accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 3600,
    issueRefreshTokens: options.issueRefreshTokens ?? true,
    stepUpAlways: options.stepUpAlways ?? false,
  };
  const clientMetadataFetches: string[] = [];
  const provider = new InMemoryOAuthProvider(mcpUrl, behaviour, {
    dynamicRegistration: options.dynamicRegistration ?? true,
    advertisedAuthMethods,
    ...(options.clientIdMetadataDocuments
      ? { resolveUrlClient: (id: string) => fetchClientMetadata(id, clientMetadataFetches) }
      : {}),
  });
  for (const client of options.clients ?? []) provider.addClient(client);

  const requests: OAuthRequestRecord[] = [];
  const mcpRequests: McpRequestRecord[] = [];
  const wellKnownRequests: WellKnownRecord[] = [];
  const asApp = authorizationServerApp(
    asUrl,
    provider,
    {
      dynamicRegistration: options.dynamicRegistration ?? true,
      advertisedAuthMethods,
      scopesSupported: options.scopesSupported,
      clientIdMetadataDocumentSupported: options.clientIdMetadataDocuments ?? false,
      oidcDiscoveryOnly: options.oidcDiscoveryOnly ?? false,
    },
    { oauth: requests, wellKnown: wellKnownRequests },
  );
  as.server.on('request', asApp);
  const protectedMcp = protectedMcpApp(
    mcpUrl,
    asUrl,
    provider,
    {
      scopesSupported: options.scopesSupported,
      requiredScopes: options.requiredScopes ?? [],
      prmLocation: options.prmLocation ?? 'path',
      advertiseResourceMetadata: options.advertiseResourceMetadata ?? true,
      adminScope: options.adminScope ?? 'admin',
    },
    behaviour,
    { mcp: mcpRequests, wellKnown: wellKnownRequests },
  );
  mcp.server.on('request', protectedMcp.app);

  return {
    asUrl,
    mcpUrl,
    resource: mcpUrl,
    resourceMetadataUrl: protectedMcp.resourceMetadataUrl,
    requests,
    mcpRequests,
    wellKnownRequests,
    clientMetadataFetches,
    behaviour,
    addClient: (client) => provider.addClient(client),
    clients: () => [...provider.clients.values()],
    registeredClients: () => provider.dynamicClientIds.map((id) => provider.clients.get(id)!),
    tokensIssued: () => [...provider.issued],
    requestsWithToken: (token) => mcpRequests.filter((r) => r.token === token),
    expireTokens: () => provider.expireTokens(),
    revokeAll: () => provider.revokeAll(),
    close: async () => {
      await protectedMcp.close();
      await Promise.all([closeServer(as.server), closeServer(mcp.server)]);
    },
  };
}
