// Cairn's MCP login against a local authorization server and a protected MCP server built from the SDK's
// server-side auth helpers (support/oauth-fixture.ts): discovery, registration, PKCE and `resource` (checked
// by the server), scopes, token endpoint authentication, refresh, step-up and the callback's state rules.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpAuthRequiredError, McpCallError, type McpConnection } from '../../src/mcp/mcp-connection';
import { listenOnLoopback } from '../support/loopback-server';
import { followLogin } from './support/follow-login';
import { type ClientBed, startClientBed } from './support/oauth-client-bed';
import { type OAuthFixture, type OAuthFixtureOptions, startOAuthFixture } from './support/oauth-fixture';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function setUp(options: OAuthFixtureOptions = {}) {
  const fixture = await startOAuthFixture(options);
  const bed = await startClientBed();
  open.push(bed, fixture);
  return { fixture, bed };
}

/** Connecting needs a login: the URL Cairn hands the user. */
async function loginUrl(bed: ClientBed, row: ReturnType<ClientBed['row']>): Promise<string> {
  const err = await bed.connect(row).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpAuthRequiredError);
  const url = (err as McpAuthRequiredError).authorizationUrl;
  expect(url).toBeTruthy();
  return url!;
}

/** The whole login: the user's browser follows the URL to Cairn's callback; then the server connects. */
async function logIn(bed: ClientBed, row: ReturnType<ClientBed['row']>): Promise<McpConnection> {
  const page = await followLogin(await loginUrl(bed, row));
  expect(page.status, page.body).toBe(200);
  expect(page.body).toMatch(/Logged in to "protected"/);
  return bed.connect(row);
}

const whoami = async (conn: McpConnection) =>
  JSON.parse((await conn.callTool('whoami', {})).text) as { client_id: string; scopes: string[] };

const of = (fixture: OAuthFixture, endpoint: string) =>
  fixture.requests.filter((r) => r.endpoint === endpoint);

describe('MCP login (OAuth) from a 401', () => {
  it('discovers, registers dynamically, logs in with PKCE and resource, and keeps the tokens in the keychain', async () => {
    const { fixture, bed } = await setUp();
    const row = bed.row(fixture.mcpUrl);
    const conn = await logIn(bed, row);
    expect((await whoami(conn)).client_id).toBe(fixture.registeredClients()[0]!.client_id);

    expect(fixture.registeredClients()).toHaveLength(1);
    expect(fixture.registeredClients()[0]!.redirect_uris).toEqual([bed.redirectUri]);
    const [authorize] = of(fixture, 'authorize');
    expect(authorize).toMatchObject({
      code_challenge_method: 'S256',
      resource: fixture.resource,
      error: null,
    });
    expect(authorize!.redirect_uri).toBe(bed.redirectUri);
    const [token] = of(fixture, 'token');
    expect(token).toMatchObject({
      grant_type: 'authorization_code',
      resource: fixture.resource,
      error: null,
    });

    const issued = fixture.tokensIssued()[0]!;
    const stored = bed.keychain.get('mcp-oauth:mcp_oauth_test:tokens');
    expect(stored).toContain(issued.accessToken);
    expect(stored).toContain(issued.refreshToken!);
    expect(fixture.requestsWithToken(issued.accessToken).length).toBeGreaterThan(0);
    const status = await bed.oauth.status(row);
    expect(status).toMatchObject({ logged_in: true, authorization_url: null, token_storage: 'keychain' });

    // Log out forgets the tokens (the registered client stays): the next connect needs a login again.
    await bed.oauth.logout(row);
    expect(bed.keychain.has('mcp-oauth:mcp_oauth_test:tokens')).toBe(false);
    expect(bed.keychain.has('mcp-oauth:mcp_oauth_test:client')).toBe(true);
    await loginUrl(bed, row);
    expect(fixture.registeredClients()).toHaveLength(1);
  });

  it('takes a state once, before it is replaced; a forged one is refused', async () => {
    const { fixture, bed } = await setUp();
    const row = bed.row(fixture.mcpUrl);
    const url = await loginUrl(bed, row);
    const forged = new URL(bed.redirectUri);
    forged.searchParams.set('state', 'not-one-cairn-issued');
    forged.searchParams.set('code', 'x');
    const refused = await fetch(forged);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/not one Cairn is waiting for/);

    const page = await followLogin(url);
    expect(page.status).toBe(200);
    // The browser's back button (or an attacker with the link) replays the callback: refused.
    const replay = await fetch(page.url);
    expect(replay.status).toBe(400);
    expect(of(fixture, 'token').filter((t) => t.grant_type === 'authorization_code')).toHaveLength(1);
  });

  it('a refused login is said on the callback page and the login is no longer waiting', async () => {
    const { fixture, bed } = await setUp({ denyAuthorization: true });
    const row = bed.row(fixture.mcpUrl);
    const page = await followLogin(await loginUrl(bed, row));
    expect(page.status).toBe(400);
    expect(page.body).toMatch(/did not grant access \(access_denied/);
    expect((await bed.oauth.status(row)).authorization_url).toBeNull();
  });

  it("cuts what a refusal's callback says: the query is anyone's to write", async () => {
    const { fixture, bed } = await setUp();
    const row = bed.row(fixture.mcpUrl);
    const state = new URL(await loginUrl(bed, row)).searchParams.get('state')!;
    const back = new URL(bed.redirectUri);
    back.searchParams.set('state', state);
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'x'.repeat(5_000));
    const page = await fetch(back);
    expect(page.status).toBe(400);
    const text = await page.text();
    expect(text).toMatch(/did not grant access \(access_denied: x+…\)/);
    expect(text.length).toBeLessThan(1_000);
  });

  it.each(['none', 'client_secret_basic', 'client_secret_post'] as const)(
    'uses a pre-registered client with token endpoint authentication %s',
    async (method) => {
      const { fixture, bed } = await setUp({
        dynamicRegistration: false,
        tokenEndpointAuthMethods: [method],
      });
      const secret = method === 'none' ? undefined : `secret-${method}-0123456789`;
      fixture.addClient({
        client_id: `pre-${method}`,
        ...(secret ? { client_secret: secret } : {}),
        token_endpoint_auth_method: method,
        redirect_uris: [bed.redirectUri],
      });
      const row = bed.row(fixture.mcpUrl, {
        client_id: `pre-${method}`,
        ...(secret ? { client_secret: secret } : {}),
      });
      const conn = await logIn(bed, row);
      expect((await whoami(conn)).client_id).toBe(`pre-${method}`);
      expect(fixture.registeredClients()).toHaveLength(0);
      const tokens = of(fixture, 'token');
      expect(tokens.map((t) => t.auth_method_used)).toEqual([method]);
      expect(tokens[0]!.error).toBeNull();
      // The config keeps the client: the keychain holds only the authorization server it is bound to (its
      // secret then goes to no other one), never the secret itself.
      const binding = JSON.parse(bed.keychain.get('mcp-oauth:mcp_oauth_test:client')!);
      expect(binding).toEqual({
        client_id: `pre-${method}`,
        issuer: fixture.asUrl,
        server_url: fixture.mcpUrl,
      });
    },
  );

  it('names itself by its client metadata URL where the authorization server takes one, else registers', async () => {
    const metadataUrl = 'https://cairn.example.com/oauth/client.json';
    const takes = await setUp({ clientIdMetadataDocuments: true });
    const url = new URL(
      await loginUrl(takes.bed, takes.bed.row(takes.fixture.mcpUrl, { client_metadata_url: metadataUrl })),
    );
    expect(url.searchParams.get('client_id')).toBe(metadataUrl);
    expect(takes.fixture.registeredClients()).toHaveLength(0);

    const refuses = await setUp();
    const dcr = new URL(
      await loginUrl(
        refuses.bed,
        refuses.bed.row(refuses.fixture.mcpUrl, { client_metadata_url: metadataUrl }),
      ),
    );
    expect(refuses.fixture.registeredClients()).toHaveLength(1);
    expect(dcr.searchParams.get('client_id')).toBe(refuses.fixture.registeredClients()[0]!.client_id);
  });

  it('asks for the scope WWW-Authenticate names', async () => {
    const { fixture, bed } = await setUp({
      requiredScopes: ['files:read'],
      scopesSupported: ['files:read', 'other'],
    });
    const conn = await logIn(bed, bed.row(fixture.mcpUrl));
    expect(of(fixture, 'authorize')[0]!.scope).toBe('files:read');
    expect((await whoami(conn)).scopes).toEqual(['files:read']);
  });

  it("else the resource's scopes_supported, found at the root well-known location", async () => {
    const { fixture, bed } = await setUp({
      scopesSupported: ['mcp', 'profile'],
      prmLocation: 'root',
      advertiseResourceMetadata: false,
    });
    await logIn(bed, bed.row(fixture.mcpUrl));
    expect(of(fixture, 'authorize')[0]!.scope).toBe('mcp profile');
    const probes = fixture.wellKnownRequests.filter((r) => r.server === 'mcp').map((r) => [r.path, r.status]);
    expect(probes).toContainEqual(['/.well-known/oauth-protected-resource/mcp', 404]);
    expect(probes).toContainEqual(['/.well-known/oauth-protected-resource', 200]);
  });

  it('else none, and finds the authorization server through OpenID Connect discovery', async () => {
    const { fixture, bed } = await setUp({ oidcDiscoveryOnly: true });
    await logIn(bed, bed.row(fixture.mcpUrl));
    expect(of(fixture, 'authorize')[0]!.scope).toBeNull();
    expect(fixture.wellKnownRequests).toContainEqual(
      expect.objectContaining({
        server: 'authorization',
        path: '/.well-known/openid-configuration',
        status: 200,
      }),
    );
  });

  it('configured scopes are asked for instead', async () => {
    const { fixture, bed } = await setUp({ scopesSupported: ['a', 'b'] });
    await logIn(bed, bed.row(fixture.mcpUrl, { scopes: ['b'] }));
    expect(of(fixture, 'authorize')[0]!.scope).toBe('b');
  });
});

describe('MCP login (OAuth) while connected', () => {
  it('refreshes a token about to expire before the request, and one the server refuses on its 401', async () => {
    const { fixture, bed } = await setUp({ accessTokenLifetimeSeconds: 3_600 });
    const conn = await logIn(bed, bed.row(fixture.mcpUrl));
    fixture.expireTokens();
    await whoami(conn);
    const refreshes = () => of(fixture, 'token').filter((t) => t.grant_type === 'refresh_token');
    expect(refreshes()).toHaveLength(1);
    expect(refreshes()[0]).toMatchObject({ resource: fixture.resource, error: null });
    const fresh = fixture.tokensIssued().at(-1)!;
    expect(fresh.grant).toBe('refresh_token');
    expect(fixture.requestsWithToken(fresh.accessToken).some((r) => r.status === 200)).toBe(true);

    // A token that expires within the minute is refreshed before it is sent: 59 minutes later (the clock
    // only; timers run as they do).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_550_000);
    const unrefused = fixture.mcpRequests.length;
    try {
      await whoami(conn);
    } finally {
      vi.useRealTimers();
    }
    expect(refreshes()).toHaveLength(2);
    // Sent with the new token at once: no request was refused first.
    expect(fixture.mcpRequests.slice(unrefused).every((r) => r.status === 200 || r.status === 202)).toBe(
      true,
    );
    const sent = fixture.mcpRequests.at(-1)!;
    expect(sent.token).toBe(fixture.tokensIssued().at(-1)!.accessToken);
    expect(sent.status).toBe(200);
  });

  it('steps up on 403 insufficient_scope: the call waits for a login with the wider scope, then runs', async () => {
    const { fixture, bed } = await setUp({ scopesSupported: ['mcp'] });
    const row = bed.row(fixture.mcpUrl);
    const conn = await logIn(bed, row);
    const required = new Promise<string>((resolve) => {
      const stop = bed.oauth.onEvent((_id, e) => {
        if (e.kind === 'required') {
          stop();
          resolve(e.url);
        }
      });
    });
    const call = conn.callTool('admin', {});
    const page = await followLogin(await required);
    expect(page.status).toBe(200);
    expect((await call).text).toContain('ok');
    const authorizes = of(fixture, 'authorize');
    expect(authorizes).toHaveLength(2);
    expect(authorizes[1]!.scope?.split(' ').sort()).toEqual(['admin', 'mcp']);
  });

  it('gives up after the step-up limit, with the server’s refusal', async () => {
    const { fixture, bed } = await setUp({ stepUpAlways: true });
    const conn = await logIn(bed, bed.row(fixture.mcpUrl));
    let logins = 0;
    const stop = bed.oauth.onEvent((_id, e) => {
      if (e.kind === 'required') {
        logins++;
        void followLogin(e.url);
      }
    });
    const err = await conn.callTool('admin', {}).catch((e: unknown) => e);
    stop();
    expect(err).toBeInstanceOf(McpCallError);
    expect((err as Error).message).toMatch(/insufficient_scope/);
    expect(logins).toBe(2);
    // Still connected: other tools work.
    expect((await whoami(conn)).client_id).toBeTruthy();
  });

  it('a call waiting for a login ends with its cancel', async () => {
    const { fixture, bed } = await setUp();
    const conn = await logIn(bed, bed.row(fixture.mcpUrl));
    const required = new Promise<void>((resolve) => {
      const stop = bed.oauth.onEvent((_id, e) => {
        if (e.kind === 'required') {
          stop();
          resolve();
        }
      });
    });
    const controller = new AbortController();
    const call = conn.callTool('admin', {}, { signal: controller.signal }).catch((e: unknown) => e);
    await required;
    controller.abort();
    const err = await call;
    expect((err as Error).message).toMatch(/cancelled/);
    expect(
      fixture.mcpRequests.filter((r) => r.status === 200 && r.rpcMethods.includes('tools/call')),
    ).toHaveLength(0);
  });

  it('two calls that need the same wider scope share one login', async () => {
    const { fixture, bed } = await setUp({ scopesSupported: ['mcp'] });
    const conn = await logIn(bed, bed.row(fixture.mcpUrl));
    const urls: string[] = [];
    const first = new Promise<void>((resolve) => {
      bed.oauth.onEvent((_id, e) => {
        if (e.kind === 'required') {
          urls.push(e.url);
          resolve();
        }
      });
    });
    const calls = [conn.callTool('admin', {}), conn.callTool('admin', {})];
    await first;
    const page = await followLogin(urls[0]!);
    expect(page.status, page.body).toBe(200);
    for (const result of await Promise.all(calls)) expect(result.text).toContain('ok');
    expect(new Set(urls).size).toBe(1);
  });
});

describe('MCP login (OAuth) refused or bounded', () => {
  it('where no callback can be taken, connecting says why at once and leaves no login waiting', async () => {
    const { fixture, bed } = await setUp();
    bed.oauth.setCallbackBase(null, 'because this is a test without a callback');
    const err = await bed.connect(bed.row(fixture.mcpUrl)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpAuthRequiredError);
    expect((err as McpAuthRequiredError).authorizationUrl).toBeNull();
    expect((err as Error).message).toMatch(/needs a login, because this is a test without a callback/);
    expect(of(fixture, 'authorize')).toHaveLength(0);
  });

  it('where no login can be finished, a login made earlier is still refreshed', async () => {
    const { fixture, bed } = await setUp();
    const row = bed.row(fixture.mcpUrl);
    await logIn(bed, row);
    bed.oauth.setCallbackBase(null, 'because the test takes no callback');
    fixture.expireTokens();
    const conn = await bed.connect(row);
    expect((await whoami(conn)).client_id).toBe(fixture.registeredClients()[0]!.client_id);
    expect(of(fixture, 'token').map((t) => t.grant_type)).toEqual(['authorization_code', 'refresh_token']);
    // A refresh token the server no longer takes: refused, saying why, with no login begun.
    fixture.revokeAll();
    const err = await bed.connect(row).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/because the test takes no callback/);
    expect(of(fixture, 'authorize')).toHaveLength(1);
  });

  it('an authorization server answering too much is refused, naming the limit', async () => {
    const bed = await startClientBed();
    open.push(bed);
    // Metadata as it should be; the registration's answer is 300 KiB.
    const huge = await listenOnLoopback((req, res) => {
      const json = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/.well-known/oauth-protected-resource/mcp') {
        return json({ resource: `${huge.url}/mcp`, authorization_servers: [huge.url] });
      }
      if (req.url === '/.well-known/oauth-authorization-server') {
        return json({
          issuer: huge.url,
          authorization_endpoint: `${huge.url}/authorize`,
          token_endpoint: `${huge.url}/token`,
          registration_endpoint: `${huge.url}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      }
      if (req.url === '/register') return json({ client_id: 'c', pad: 'x'.repeat(300 * 1024) });
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${huge.url}/.well-known/oauth-protected-resource/mcp"`,
      });
      res.end();
    });
    open.push(huge);
    const err = await bed.connect(bed.row(`${huge.url}/mcp`)).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/over 256 KiB/);
  });

  it('a server that answers 401 without offering a login says what to do instead', async () => {
    const bed = await startClientBed();
    open.push(bed);
    const keyed = await listenOnLoopback((_req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('missing api key');
    });
    open.push(keyed);
    const err = await bed.connect(bed.row(`${keyed.url}/mcp`)).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /asks for a login \(HTTP 401\), which could not start: .*set it as its bearer token or a header/,
    );
  });
});
