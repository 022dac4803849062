// An MCP server behind OAuth, through the real sidecar with a real keyring: a turn waits for the login, the
// user's browser follows the authorization URL to Cairn's public callback, the turn goes on with the server's
// tools; tokens live in the keychain only; log out, settings and the refusals of the callback.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnEvent, McpAuthorizeResult, McpServer, McpSessionStatus } from '../../src/protocol';
import { followLogin } from '../mcp/support/follow-login';
import { type OAuthFixture, startOAuthFixture } from '../mcp/support/oauth-fixture';
import { allFiles } from '../support/data-files';
import { type Harness, startHarness } from '../support/harness';
import { useKeyringInProcess } from '../support/keyring-in-process';

type ErrorBody = { error: { code: string; message: string } };
type McpServerEvent = Extract<CairnEvent, { type: 'mcp.server' }>;

describe('MCP login (OAuth) through the sidecar', () => {
  useKeyringInProcess();
  let h: Harness;
  let fixture: OAuthFixture;
  let server: McpServer;

  beforeAll(async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['mcp'] });
    h = await startHarness();
    const res = await h.api<McpServer>('POST', '/api/mcp/servers', {
      name: 'protected',
      transport: 'streamable_http',
      url: fixture.mcpUrl,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    server = (await h.api<McpServer>('PATCH', `/api/mcp/servers/${res.body.id}`, { enabled: true })).body;
  });
  afterAll(async () => {
    await h?.close();
    await fixture?.close();
  });

  it('shows the redirect URI under the server’s own address, and no login yet', () => {
    expect(server).toMatchObject({
      redirect_uri: `${h.server.url}/api/mcp/oauth/callback`,
      authorization_url: null,
      logged_in: false,
      token_storage: 'keychain',
      oauth: null,
    });
  });

  it('a turn waits for the login, the browser comes back to the callback, and the turn has the tools', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'done' }] });
    const turn = await h.startTurn(sessionId, 'use the protected server');
    const waiting = (await h.waitForEvent(
      sessionId,
      (e) => e.type === 'mcp.server' && e.state === 'auth_required' && e.turn_id === turn.id,
    )) as McpServerEvent;
    expect(waiting.authorization_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    expect(h.model.requests).toHaveLength(0);

    const status = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    expect(status.servers[0]).toMatchObject({
      state: 'auth_required',
      authorization_url: waiting.authorization_url,
    });
    const shown = (await h.api<McpServer>('GET', `/api/mcp/servers/${server.id}`)).body;
    expect(shown.authorization_url).toBe(waiting.authorization_url);
    // Log in from settings while the turn waits: the same login, not a second one.
    const started = await h.api<McpAuthorizeResult>('POST', `/api/mcp/servers/${server.id}/authorize`);
    expect(started.body.authorization_url).toBe(waiting.authorization_url);

    const page = await followLogin(waiting.authorization_url!);
    expect(page.url.startsWith(`${h.server.url}/api/mcp/oauth/callback?`)).toBe(true);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Logged in to &#34;protected&#34;. You can close this page.');

    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.status).toBe('completed');
    const tools = (h.model.requests[0]!.body as { tools?: { name: string }[] }).tools ?? [];
    expect(tools.map((t) => t.name).some((n) => n.includes('whoami'))).toBe(true);
    const after = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    expect(after.servers[0]).toMatchObject({ state: 'connected', authorization_url: null });

    // The callback page again (the browser's history): the state is spent.
    const replay = await fetch(page.url);
    expect(replay.status).toBe(400);
    expect(replay.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('keeps the tokens in the keychain only: never in SQLite, logs, events or responses', async () => {
    const issued = fixture.tokensIssued();
    expect(issued.length).toBeGreaterThan(0);
    const held = await h.server.core.keychain.get(`mcp-oauth:${server.id}:tokens`);
    expect(held).toContain(issued.at(-1)!.accessToken);
    const shown = await h.api<McpServer>('GET', `/api/mcp/servers/${server.id}`);
    expect(shown.body.logged_in).toBe(true);
    const secrets = issued.flatMap((t) => [t.accessToken, t.refreshToken ?? '']).filter(Boolean);
    const clientSecret = fixture.registeredClients()[0]?.client_secret;
    if (clientSecret) secrets.push(clientSecret);
    expect(JSON.stringify(shown.body)).not.toContain(issued.at(-1)!.accessToken);
    await h.server.stop(); // flushes the database and logs; the folder stays
    for (const file of allFiles(h.dataDir)) {
      const text = fs.readFileSync(file);
      for (const secret of secrets) expect(text.includes(secret), `${file} holds a token`).toBe(false);
    }
    await h.restart();
    expect((await h.api<McpServer>('GET', `/api/mcp/servers/${server.id}`)).body.logged_in).toBe(true);
  });

  it('a call that needs a wider scope waits in its turn for the step-up login, then runs', async () => {
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'ready' }] });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'connect')).id);
    const status = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    const admin = status.servers[0]!.tools.find((t) => t.name === 'admin')!.agent_name;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: admin, input: {} }] },
      { content: [{ type: 'text', text: 'admin done' }] },
    );
    const turn = await h.startTurn(sessionId, 'use admin');
    const waiting = (await h.waitForEvent(
      sessionId,
      (e) => e.type === 'mcp.server' && e.state === 'auth_required' && e.turn_id === turn.id,
    )) as McpServerEvent;
    expect(new URL(waiting.authorization_url!).searchParams.get('scope')?.split(' ').sort()).toEqual([
      'admin',
      'mcp',
    ]);
    expect((await followLogin(waiting.authorization_url!)).status).toBe(200);
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const results = JSON.stringify(h.model.requests.at(-1)!.body);
    // The tool's own answer reached the model ({"admin":"ok"}), not the server's refusal.
    expect(results).toMatch(/admin\\*"\s*:\s*\\*"ok/);
    expect(results).not.toMatch(/insufficient_scope/);
    const after = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    expect(after.servers[0]).toMatchObject({ state: 'connected', authorization_url: null });
  });

  it('log out forgets the tokens; a changed endpoint forgets the login', async () => {
    const out = await h.api<McpServer>('DELETE', `/api/mcp/servers/${server.id}/authorization`);
    expect(out.status).toBe(200);
    expect(out.body.logged_in).toBe(false);
    expect(await h.server.core.keychain.get(`mcp-oauth:${server.id}:tokens`)).toBeNull();
    expect(await h.server.core.keychain.get(`mcp-oauth:${server.id}:client`)).not.toBeNull();
    await h.api('PATCH', `/api/mcp/servers/${server.id}`, { url: `${fixture.mcpUrl}?v=2` });
    expect(await h.server.core.keychain.get(`mcp-oauth:${server.id}:client`)).toBeNull();
    await h.api('PATCH', `/api/mcp/servers/${server.id}`, { url: fixture.mcpUrl });
  });

  it('cancelling the turn ends its wait; a login made later connects the session’s server', async () => {
    const { sessionId } = await h.newSession();
    const turn = await h.startTurn(sessionId, 'hello');
    await h.waitForEvent(
      sessionId,
      (e) => e.type === 'mcp.server' && e.state === 'auth_required' && e.turn_id === turn.id,
    );
    const requests = h.model.requests.length;
    expect((await h.api('POST', `/api/turns/${turn.id}/cancel`)).status).toBeLessThan(300);
    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.status).toBe('cancelled');
    expect(h.model.requests.length).toBe(requests);

    // Logged in from settings afterwards, with no turn waiting: the session's server connects now.
    const login = await h.api<McpAuthorizeResult>('POST', `/api/mcp/servers/${server.id}/authorize`);
    expect((await followLogin(login.body.authorization_url)).status).toBe(200);
    await h.waitForEvent(
      sessionId,
      (e) => e.type === 'mcp.server' && e.state === 'connected' && e.turn_id === null,
    );
    const status = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    expect(status.servers[0]).toMatchObject({ state: 'connected', authorization_url: null, error: null });
  });

  it('takes OAuth settings with a client secret kept as a secret, and refuses what cannot work', async () => {
    const created = await h.api<McpServer & ErrorBody>('POST', '/api/mcp/servers', {
      name: 'pre-registered',
      transport: 'streamable_http',
      url: fixture.mcpUrl,
      oauth: { client_id: 'cairn-app', client_secret: { secret: true }, scopes: ['mcp'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.oauth).toEqual({
      client_id: 'cairn-app',
      client_secret: { secret: true, has_value: false },
      scopes: ['mcp'],
    });
    const set = await h.api<McpServer>('PUT', `/api/mcp/servers/${created.body.id}/secrets`, {
      oauth_client_secret: 'client-secret-value-0123456789',
    });
    expect(set.body.oauth?.client_secret).toEqual({ secret: true, has_value: true });
    expect(JSON.stringify(set.body)).not.toContain('client-secret-value-0123456789');

    const bad: [Record<string, unknown>, RegExp][] = [
      [{ client_secret: 'x' }, /give its oauth.client_id too/],
      [{ client_metadata_url: 'http://example.com/client.json' }, /https URL with a path/],
      [{ scopes: ['has space'] }, /scope/],
      [{ unknown: 1 }, /unknown|Unrecognized/i],
    ];
    for (const [oauth, why] of bad) {
      const res = await h.api<ErrorBody>('POST', '/api/mcp/servers', {
        name: `bad-${Math.random()}`,
        transport: 'streamable_http',
        url: fixture.mcpUrl,
        oauth,
      });
      expect(res.status, JSON.stringify(oauth)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(why);
    }
    const stdio = await h.api<ErrorBody>('POST', '/api/mcp/servers', {
      name: 'stdio-oauth',
      transport: 'stdio',
      command: 'node x.js',
      oauth: { client_id: 'a' },
    });
    expect(stdio.body.error.message).toMatch(/OAuth settings are for HTTP servers/);
    const authorizeStdio = await h.api<ErrorBody>('POST', `/api/mcp/servers/${created.body.id}x/authorize`);
    expect(authorizeStdio.status).toBe(404);
  });

  it('where logins are refused, a turn does not wait: the server says why at once', async () => {
    const oauth = h.server.core.services.mcpOAuth();
    oauth.setCallbackBase(null, 'which this test refuses');
    try {
      await h.api('DELETE', `/api/mcp/servers/${server.id}/authorization`);
      const { sessionId } = await h.newSession();
      h.model.enqueue({ content: [{ type: 'text', text: 'without it' }] });
      const turn = await h.startTurn(sessionId, 'hello');
      expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
      const status = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
      const shown = status.servers.find((s) => s.server_id === server.id)!;
      expect(shown).toMatchObject({ state: 'auth_required', authorization_url: null });
      expect(shown.error).toMatch(/needs a login, which this test refuses/);
      const refused = await h.api<ErrorBody>('POST', `/api/mcp/servers/${server.id}/authorize`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/refused here: which this test refuses/);
    } finally {
      oauth.setCallbackBase(h.server.url);
    }
  });

  it('the callback is public and refuses a state it did not issue; everything else still asks for the token', async () => {
    const res = await fetch(`${h.server.url}/api/mcp/oauth/callback?state=forged&code=abc`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/not one Cairn is waiting for/);
    // However the path is spelled, the page keeps its own strict policy (not the app page's).
    const spelled = await fetch(`${h.server.url}/%61pi/mcp/oauth/callback?state=forged`);
    expect(spelled.status).toBe(400);
    expect(spelled.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(
      (await fetch(`${h.server.url}/api/mcp/servers/${server.id}/authorize`, { method: 'POST' })).status,
    ).toBe(401);
  });
});

describe('a turn waiting for an MCP login (real sidecar)', () => {
  let h: Harness;
  let fixture: OAuthFixture;
  const addServer = async (name: string, block: boolean) => {
    const res = await h.api<McpServer>('POST', '/api/mcp/servers', {
      name,
      transport: 'streamable_http',
      url: fixture.mcpUrl,
      block_on_failure: block,
    });
    await h.api('PATCH', `/api/mcp/servers/${res.body.id}`, { enabled: true });
    return res.body;
  };
  beforeAll(async () => {
    fixture = await startOAuthFixture();
    h = await startHarness({ env: { CAIRN_MCP_LOGIN_TIMEOUT_SEC: '1' } });
  });
  afterAll(async () => {
    await h?.close();
    await fixture?.close();
  });

  it('goes on without the server once the wait is over, saying why', async () => {
    const server = await addServer('slow-login', false);
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: [{ type: 'text', text: 'done' }] });
    const turn = await h.startTurn(sessionId, 'hello');
    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.status).toBe('completed');
    const status = (await h.api<McpSessionStatus>('GET', `/api/sessions/${sessionId}/mcp`)).body;
    expect(status.servers[0]).toMatchObject({ server_id: server.id, state: 'auth_required' });
    expect(status.servers[0]!.error).toMatch(
      /no login to MCP server "slow-login" within 1 s; the turn went on/,
    );
    // Nothing waits for that login now: the session shows no URL, and Log in gives the login still open.
    expect(status.servers[0]!.authorization_url).toBeNull();
    const again = await h.api<McpAuthorizeResult>('POST', `/api/mcp/servers/${server.id}/authorize`);
    expect(again.body.authorization_url).toMatch(/\/authorize\?/);
    const tools = (h.model.requests.at(-1)!.body as { tools?: { name: string }[] }).tools ?? [];
    expect(tools.some((t) => t.name.includes('whoami'))).toBe(false);
  });

  it('a server that blocks the session stops the turn, naming it', async () => {
    await h.api('PATCH', `/api/mcp/servers/${(await addServer('must-login', true)).id}`, {});
    const { sessionId } = await h.newSession();
    const turn = await h.startTurn(sessionId, 'hello');
    const ended = await h.waitForTurnEnd(turn.id);
    expect(ended.status).toBe('failed');
    expect(JSON.stringify(ended)).toMatch(/must-login/);
  });
});
