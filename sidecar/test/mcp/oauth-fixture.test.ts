// The OAuth test bed, checked with the SDK's own client helpers, so the tests of Cairn's OAuth client can
// trust it: discovery (both PRM locations, OIDC fallback), registration, PKCE and resource checked, the
// MCP server's 401/403 challenges, refresh and each token endpoint authentication method.

import {
  discoverOAuthServerInfo,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, listenOnLoopback } from '../support/loopback-server';
import { followLogin } from './support/follow-login';
import { type OAuthFixture, startOAuthFixture } from './support/oauth-fixture';

// Stands in for Cairn's callback page: answers the query it got as JSON; also serves a client ID
// metadata document at /client.json.
let target: LoopbackServer;
let redirectUri: string;
beforeAll(async () => {
  target = await listenOnLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/client.json') {
      return void res.end(
        JSON.stringify({
          client_id: `${target.url}/client.json`,
          client_name: 'doc client',
          redirect_uris: [redirectUri],
        }),
      );
    }
    res.end(JSON.stringify(Object.fromEntries(url.searchParams)));
  });
  redirectUri = `${target.url}/callback`;
});
afterAll(() => target.close());

async function login(
  f: OAuthFixture,
  client: OAuthClientInformationMixed,
  meta: AuthorizationServerMetadata,
  scope?: string,
) {
  const { authorizationUrl, codeVerifier } = await startAuthorization(f.asUrl, {
    metadata: meta,
    clientInformation: client,
    redirectUrl: redirectUri,
    state: 'state-1',
    resource: new URL(f.resource),
    ...(scope ? { scope } : {}),
  });
  const page = await followLogin(authorizationUrl.href);
  expect(page.url.startsWith(redirectUri)).toBe(true);
  return {
    callback: JSON.parse(page.body) as { code?: string; state?: string; error?: string },
    codeVerifier,
  };
}

async function loginAndExchange(
  f: OAuthFixture,
  client: OAuthClientInformationMixed,
  meta: AuthorizationServerMetadata,
  scope?: string,
) {
  const { callback, codeVerifier } = await login(f, client, meta, scope);
  return exchangeAuthorization(f.asUrl, {
    metadata: meta,
    clientInformation: client,
    authorizationCode: callback.code!,
    codeVerifier,
    redirectUri,
    resource: new URL(f.resource),
  });
}

async function callTool(f: OAuthFixture, token: string, name: string): Promise<Record<string, unknown>> {
  const client = new Client({ name: 'fixture-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(f.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    const result = (await client.callTool({ name, arguments: {} })) as {
      content: { text: string }[];
    };
    return JSON.parse(result.content[0]!.text);
  } finally {
    await client.close();
  }
}

// A raw JSON-RPC POST, to see the HTTP status and WWW-Authenticate a client would get.
function rawPost(f: OAuthFixture, body: unknown, token?: string) {
  return fetch(f.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}
const callAdmin = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'admin', arguments: {} } };
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('dynamic registration, path-based PRM, scopes_supported', () => {
  let f: OAuthFixture;
  let meta: AuthorizationServerMetadata;
  let client: OAuthClientInformationMixed;
  beforeAll(async () => {
    f = await startOAuthFixture({ scopesSupported: ['mcp:read', 'admin'] });
    const info = await discoverOAuthServerInfo(f.mcpUrl);
    meta = info.authorizationServerMetadata!;
    client = await registerClient(f.asUrl, {
      metadata: meta,
      clientMetadata: {
        redirect_uris: [redirectUri],
        client_name: 'fixture test',
        token_endpoint_auth_method: 'none',
      },
    });
  });
  afterAll(() => f.close());

  it('challenges with resource_metadata and serves PRM and AS metadata', async () => {
    const res = await rawPost(f, initialize);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${f.resourceMetadataUrl}"`);
    expect(f.resourceMetadataUrl).toMatch(/\/\.well-known\/oauth-protected-resource\/mcp$/);
    const info = await discoverOAuthServerInfo(f.mcpUrl);
    expect(info.resourceMetadata).toMatchObject({
      resource: f.resource,
      authorization_servers: [f.asUrl],
      scopes_supported: ['mcp:read', 'admin'],
    });
    expect(info.authorizationServerMetadata).toMatchObject({
      issuer: f.asUrl,
      registration_endpoint: `${f.asUrl}register`,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(f.registeredClients().map((c) => c.client_id)).toEqual([client.client_id]);
  });

  it('logs in with PKCE and resource, refusing a wrong verifier and a missing or wrong resource', async () => {
    const { callback, codeVerifier } = await login(f, client, meta, 'mcp:read');
    expect(callback.state).toBe('state-1');
    expect(f.requests.at(-1)).toMatchObject({
      endpoint: 'authorize',
      client_id: client.client_id,
      resource: f.resource,
      scope: 'mcp:read',
      code_challenge_method: 'S256',
      state: 'state-1',
      redirect_uri: redirectUri,
      status: 302,
      error: null,
    });
    const exchange = (over: { codeVerifier?: string; resource?: URL }) =>
      exchangeAuthorization(f.asUrl, {
        metadata: meta,
        clientInformation: client,
        authorizationCode: callback.code!,
        codeVerifier,
        redirectUri,
        ...over,
      });
    await expect(
      exchange({ codeVerifier: `${codeVerifier}x`, resource: new URL(f.resource) }),
    ).rejects.toThrow(/code_verifier/);
    await expect(exchange({})).rejects.toThrow(/resource/);
    await expect(exchange({ resource: new URL(`${f.mcpUrl}-other`) })).rejects.toThrow(/resource/);
    expect(f.requests.slice(-3).map((r) => r.error)).toEqual([
      'invalid_grant',
      'invalid_target',
      'invalid_target',
    ]);
    const tokens = await exchange({ resource: new URL(f.resource) });
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp:read' });
    expect(f.requests.at(-1)).toMatchObject({
      grant_type: 'authorization_code',
      auth_method_used: 'none',
      status: 200,
    });
    // A code is good once.
    await expect(exchange({ resource: new URL(f.resource) })).rejects.toThrow(/authorization code/);

    expect(await callTool(f, tokens.access_token, 'whoami')).toEqual({
      client_id: client.client_id,
      scopes: ['mcp:read'],
    });
    expect(f.requestsWithToken(tokens.access_token).every((r) => r.status === 200 || r.status === 202)).toBe(
      true,
    );

    const denied = await rawPost(f, callAdmin, tokens.access_token);
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="mcp:read admin", resource_metadata="${f.resourceMetadataUrl}"`,
    );
  });

  it('grants the admin tool after step-up, unless stepUpAlways', async () => {
    const tokens = await loginAndExchange(f, client, meta, 'mcp:read admin');
    expect(await callTool(f, tokens.access_token, 'admin')).toEqual({ admin: 'ok' });
    f.behaviour.stepUpAlways = true;
    try {
      expect((await rawPost(f, callAdmin, tokens.access_token)).status).toBe(403);
    } finally {
      f.behaviour.stepUpAlways = false;
    }
  });

  it('refuses an expired token and refreshes with rotation', async () => {
    const first = await loginAndExchange(f, client, meta, 'mcp:read');
    f.expireTokens();
    const expired = await rawPost(f, initialize, first.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = (refreshToken: string) =>
      refreshAuthorization(f.asUrl, {
        metadata: meta,
        clientInformation: client,
        refreshToken,
        resource: new URL(f.resource),
      });
    const second = await refresh(first.refresh_token!);
    expect(f.requests.at(-1)).toMatchObject({
      grant_type: 'refresh_token',
      resource: f.resource,
      status: 200,
    });
    await expect(refresh(first.refresh_token!)).rejects.toThrow(/refresh token/);
    expect(await callTool(f, second.access_token, 'whoami')).toMatchObject({ scopes: ['mcp:read'] });
    expect(f.requestsWithToken(first.access_token).map((r) => r.status)).toEqual([401]);
    expect(f.requestsWithToken(second.access_token).length).toBeGreaterThan(0);
    expect(f.tokensIssued().at(-1)).toMatchObject({
      grant: 'refresh_token',
      accessToken: second.access_token,
    });
    f.revokeAll();
    expect((await rawPost(f, initialize, second.access_token)).status).toBe(401);
  });

  it('redirects invalid_target for an authorization request without the resource', async () => {
    const { authorizationUrl } = await startAuthorization(f.asUrl, {
      metadata: meta,
      clientInformation: client,
      redirectUrl: redirectUri,
      state: 'no-resource',
    });
    const page = await followLogin(authorizationUrl.href);
    expect(JSON.parse(page.body)).toMatchObject({ error: 'invalid_target', state: 'no-resource' });
    expect(f.requests.at(-1)).toMatchObject({
      endpoint: 'authorize',
      resource: null,
      error: 'invalid_target',
    });
  });

  it('redirects access_denied with the state, and refuses an unregistered redirect_uri outright', async () => {
    f.behaviour.denyAuthorization = true;
    try {
      const { callback } = await login(f, client, meta);
      expect(callback).toMatchObject({ error: 'access_denied', state: 'state-1' });
    } finally {
      f.behaviour.denyAuthorization = false;
    }
    const { authorizationUrl } = await startAuthorization(f.asUrl, {
      metadata: meta,
      clientInformation: client,
      redirectUrl: `${target.url}/elsewhere`,
      resource: new URL(f.resource),
    });
    const page = await followLogin(authorizationUrl.href);
    expect(page.status).toBe(400);
    expect(page.url).toBe(authorizationUrl.href);
  });

  it('followLogin refuses anything but loopback', async () => {
    await expect(followLogin('https://example.com/authorize')).rejects.toThrow(/127\.0\.0\.1 or localhost/);
  });
});

describe('pre-registered clients, root PRM not advertised, scope in the challenge', () => {
  let f: OAuthFixture;
  let meta: AuthorizationServerMetadata;
  const clients = [
    { client_id: 'public', token_endpoint_auth_method: 'none' as const },
    {
      client_id: 'basic',
      client_secret: 's3cret',
      token_endpoint_auth_method: 'client_secret_basic' as const,
    },
    { client_id: 'post', client_secret: 'p0st', token_endpoint_auth_method: 'client_secret_post' as const },
  ];
  beforeAll(async () => {
    f = await startOAuthFixture({
      dynamicRegistration: false,
      prmLocation: 'root',
      advertiseResourceMetadata: false,
      requiredScopes: ['mcp:read'],
    });
    for (const c of clients) f.addClient({ ...c, redirect_uris: [redirectUri] });
    meta = (await discoverOAuthServerInfo(f.mcpUrl)).authorizationServerMetadata!;
  });
  afterAll(() => f.close());

  it('finds the root PRM by probing, and offers no registration', async () => {
    const res = await rawPost(f, initialize);
    expect(res.headers.get('www-authenticate')).toContain('scope="mcp:read"');
    expect(res.headers.get('www-authenticate')).not.toContain('resource_metadata');
    const probes = f.wellKnownRequests.filter((r) => r.server === 'mcp').map((r) => [r.path, r.status]);
    expect(probes).toEqual([
      ['/.well-known/oauth-protected-resource/mcp', 404],
      ['/.well-known/oauth-protected-resource', 200],
    ]);
    expect(meta.registration_endpoint).toBeUndefined();
    expect((await fetch(`${f.asUrl}register`, { method: 'POST' })).status).toBe(404);
  });

  it('records each client authentication method and holds clients to theirs', async () => {
    for (const c of clients) {
      const tokens = await loginAndExchange(f, c, meta, 'mcp:read');
      expect(f.requests.at(-1)).toMatchObject({
        client_id: c.client_id,
        auth_method_used: c.token_endpoint_auth_method,
      });
      expect(await callTool(f, tokens.access_token, 'whoami')).toEqual({
        client_id: c.client_id,
        scopes: ['mcp:read'],
      });
    }
    const basic = clients[1]!;
    const { callback, codeVerifier } = await login(f, basic, meta, 'mcp:read');
    const asPost = exchangeAuthorization(f.asUrl, {
      metadata: meta,
      clientInformation: basic,
      authorizationCode: callback.code!,
      codeVerifier,
      redirectUri,
      resource: new URL(f.resource),
      addClientAuthentication: (_headers, params) => {
        params.set('client_id', basic.client_id);
        params.set('client_secret', basic.client_secret ?? '');
      },
    });
    await expect(asPost).rejects.toThrow(/registered for client_secret_basic/);
    expect(f.requests.at(-1)).toMatchObject({
      auth_method_used: 'client_secret_post',
      error: 'invalid_client',
    });
  });
});

describe('OpenID Connect discovery only, client ID metadata documents', () => {
  let f: OAuthFixture;
  beforeAll(async () => {
    f = await startOAuthFixture({
      oidcDiscoveryOnly: true,
      clientIdMetadataDocuments: true,
      prmLocation: 'both',
    });
  });
  afterAll(() => f.close());

  it('falls back from RFC 8414 to openid-configuration', async () => {
    const info = await discoverOAuthServerInfo(f.mcpUrl);
    expect(info.authorizationServerMetadata).toMatchObject({
      issuer: f.asUrl,
      client_id_metadata_document_supported: true,
    });
    expect(
      f.wellKnownRequests.filter((r) => r.server === 'authorization').map((r) => [r.path, r.status]),
    ).toEqual([
      ['/.well-known/oauth-authorization-server', 404],
      ['/.well-known/openid-configuration', 200],
    ]);
  });

  it('accepts a client id that is a metadata document URL', async () => {
    const meta = (await discoverOAuthServerInfo(f.mcpUrl)).authorizationServerMetadata!;
    const client = { client_id: `${target.url}/client.json` };
    const tokens = await loginAndExchange(f, client, meta);
    expect(f.clientMetadataFetches).toEqual([client.client_id]);
    expect(await callTool(f, tokens.access_token, 'whoami')).toEqual({
      client_id: client.client_id,
      scopes: [],
    });
  });
});
