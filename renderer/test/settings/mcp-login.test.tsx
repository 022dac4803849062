// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { McpServer } from '../../../sidecar/src/protocol';
import { McpSection } from '../../src/components/settings/McpSection';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { mcpServer } from '../support/mcp-servers';

function httpServer(patch: Partial<McpServer> = {}): McpServer {
  return mcpServer({
    enabled: true,
    name: 'remote',
    transport: 'streamable_http',
    command: null,
    url: 'https://mcp.example.com/mcp',
    redirect_uri: 'http://127.0.0.1:4500/api/mcp/oauth/callback',
    ...patch,
  });
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The MCP servers routes over one server held in memory, recording each request. */
function fakeMcpApi(initial: McpServer, loginUrl = 'https://auth.example.com/authorize?state=abc') {
  let current = initial;
  const requests: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, path: url.pathname, body });
    const base = `/api/mcp/servers/${current.id}`;
    if (method === 'GET' && url.pathname === '/api/mcp/servers') return json(200, { servers: [current] });
    if (method === 'POST' && url.pathname === `${base}/authorize`) {
      current = { ...current, authorization_url: loginUrl };
      return json(200, { authorization_url: loginUrl });
    }
    if (method === 'DELETE' && url.pathname === `${base}/authorization`) {
      current = { ...current, logged_in: false };
      return json(200, current);
    }
    if (method === 'POST' && url.pathname === `${base}/test`) {
      // A server that asks for a login: the test starts one, and fails.
      current = { ...current, authorization_url: loginUrl };
      return json(401, { error: { code: 'mcp_auth_required', message: 'remote asks for a login' } });
    }
    if (method === 'PATCH' && url.pathname === base) return json(200, current);
    if (method === 'PUT' && url.pathname === `${base}/secrets`) return json(200, current);
    return json(404, { error: { code: 'not_found', message: `${method} ${url.pathname}` } });
  };
  return { requests, fetch, set: (next: McpServer) => (current = next) };
}

function setup(server: McpServer, options: { locale?: Locale; loginUrl?: string } = {}) {
  const api = fakeMcpApi(server, options.loginUrl);
  const client = new CairnClient({ url: 'http://127.0.0.1:1', token: 't' }, api.fetch);
  render(
    <I18nProvider locale={options.locale ?? 'en'}>
      <McpSection client={client} />
    </I18nProvider>,
  );
  return api;
}

const row = async (name = 'remote') => within(await screen.findByRole('listitem', { name }));

let opened: MockInstance<typeof window.open>;
beforeEach(() => {
  opened = vi.spyOn(window, 'open').mockImplementation(() => null);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('an HTTP server’s login in Settings', () => {
  it('Log in starts a login and opens its page in a new tab, without a handle on this page', async () => {
    const api = setup(httpServer());
    const item = await row();
    // Not known to use logins yet: no "not logged in", and no redirect URI to register without a client ID.
    expect(item.queryByTestId('mcp-login-badge')).toBeNull();
    expect(item.queryByTestId('mcp-redirect-uri')).toBeNull();
    fireEvent.click(item.getByRole('button', { name: 'Log in' }));
    await item.findByText(/The login page opened in your browser/);
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/mcp/servers/srv1/authorize',
    ]);
    expect(opened.mock.calls).toEqual([
      ['https://auth.example.com/authorize?state=abc', '_blank', 'noopener,noreferrer'],
    ]);
    // In case the browser blocked the tab: the same page as a link.
    const link = item.getByRole('link', { name: 'Open the login page' });
    expect(link.getAttribute('href')).toBe('https://auth.example.com/authorize?state=abc');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');

    // Back from the browser, logged in: the list is read again and says so.
    api.set(httpServer({ logged_in: true }));
    fireEvent.focus(window);
    await waitFor(() => expect(item.getByTestId('mcp-login-badge').textContent).toBe('logged in'));
    await waitFor(() => expect(item.queryByText(/The login page opened/)).toBeNull());
    expect(item.queryByRole('link')).toBeNull();
    expect(item.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('says so when the login ended in the browser without logging in, and offers Log in again', async () => {
    const api = setup(httpServer());
    const item = await row();
    fireEvent.click(item.getByRole('button', { name: 'Log in' }));
    await item.findByText(/The login page opened in your browser/);
    // Denied at the authorization server: read again, the login is gone and nothing is logged in.
    api.set(httpServer());
    fireEvent.focus(window);
    expect((await item.findByRole('alert')).textContent).toBe('The login did not finish; try again.');
    expect(item.queryByText(/The login page opened/)).toBeNull();
    expect(item.queryByRole('link')).toBeNull();
    expect((item.getByRole('button', { name: 'Log in' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('keeps waiting when read again while the login still waits', async () => {
    setup(httpServer());
    const item = await row();
    fireEvent.click(item.getByRole('button', { name: 'Log in' }));
    await item.findByText(/The login page opened in your browser/);
    fireEvent.focus(window);
    // Read again (the login waiting makes the server one that uses logins), still the same login.
    await waitFor(() => expect(item.getByTestId('mcp-login-badge').textContent).toBe('not logged in'));
    expect(item.getByText(/The login page opened/)).toBeTruthy();
    expect(item.queryByRole('alert')).toBeNull();
  });

  it('shows no login for a server with a bearer token or its own Authorization header', async () => {
    setup(httpServer({ bearer_token: { secret: true, has_value: true }, oauth: { scopes: ['x'] } }));
    let item = await row();
    expect(item.queryByTestId('mcp-login')).toBeNull();
    expect(item.queryByTestId('mcp-login-badge')).toBeNull();
    cleanup();
    setup(httpServer({ headers: { AUTHORIZATION: 'Basic abc' }, redirect_uri: null }));
    item = await row();
    expect(item.queryByTestId('mcp-login')).toBeNull();
    expect(item.queryByRole('button', { name: 'Log in' })).toBeNull();
  });

  it('says "not logged in" of a server with OAuth settings, and shows the redirect URI for a client ID', async () => {
    setup(httpServer({ oauth: { client_id: 'cairn-app' } }), { locale: 'zh-CN' });
    const item = await row();
    expect(item.getByTestId('mcp-login-badge').textContent).toBe('未登录');
    expect(item.getByTestId('mcp-redirect-uri').textContent).toBe(
      'http://127.0.0.1:4500/api/mcp/oauth/callback',
    );
    expect(item.getByText(/端口都可能变化.*RFC 8252/)).toBeTruthy();
    cleanup();
    setup(httpServer({ oauth: { scopes: ['mcp:read'] } }));
    const other = await row();
    expect(other.getByTestId('mcp-login-badge').textContent).toBe('not logged in');
    expect(other.queryByTestId('mcp-redirect-uri')).toBeNull();
  });

  it('explains that the redirect URI’s port may change', async () => {
    setup(httpServer({ oauth: { client_id: 'cairn-app' } }));
    expect(
      (await row()).getByText(
        /port may change at each start of the desktop app or of a CLI command, unless Cairn runs as “cairn serve” with a fixed port or --public-url; .*RFC 8252/,
      ),
    ).toBeTruthy();
  });

  it('shows a login a connection test started, without a reload', async () => {
    setup(httpServer());
    const item = await row();
    fireEvent.click(item.getByRole('button', { name: 'Test connection' }));
    await item.findByText('A login is waiting for you.');
    expect(item.getByRole('link', { name: 'Open the login page' })).toBeTruthy();
    expect(item.getByTestId('mcp-login-badge').textContent).toBe('not logged in');
  });

  it('opens no login page that is not https (or http to this computer)', async () => {
    setup(httpServer(), { loginUrl: 'javascript:alert(1)' });
    const item = await row();
    fireEvent.click(item.getByRole('button', { name: 'Log in' }));
    expect((await item.findByRole('alert')).textContent).toMatch(/Cairn does not open this login page/);
    expect(opened).not.toHaveBeenCalled();
    expect(item.queryByRole('link')).toBeNull();
  });

  it('opens a local authorization server over plain http', async () => {
    setup(httpServer(), { loginUrl: 'http://localhost:4100/authorize?state=s' });
    fireEvent.click((await row()).getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(opened.mock.calls).toEqual([
        ['http://localhost:4100/authorize?state=s', '_blank', 'noopener,noreferrer'],
      ]),
    );
  });

  it('Log out forgets the tokens and the list shows the server logged out', async () => {
    const api = setup(httpServer({ logged_in: true, oauth: { scopes: ['mcp:read'] } }));
    const item = await row();
    expect(item.getByTestId('mcp-login-badge').textContent).toBe('logged in');
    expect(item.queryByRole('button', { name: 'Log in' })).toBeNull();
    fireEvent.click(item.getByRole('button', { name: 'Log out' }));
    await item.findByRole('button', { name: 'Log in' });
    expect(item.getByTestId('mcp-login-badge').textContent).toBe('not logged in');
    expect(
      api.requests.some((r) => r.method === 'DELETE' && r.path === '/api/mcp/servers/srv1/authorization'),
    ).toBe(true);
  });

  it('offers a login already waiting as a link', async () => {
    setup(httpServer({ authorization_url: 'https://auth.example.com/authorize?state=old' }));
    const item = await row();
    expect(item.getByText('A login is waiting for you.')).toBeTruthy();
    fireEvent.click(item.getByRole('link', { name: 'Open the login page' }));
    await waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
    expect(opened.mock.calls[0]![0]).toBe('https://auth.example.com/authorize?state=old');
  });

  it('says logins are refused on a remote Cairn without a public URL, and offers no Log in', async () => {
    setup(httpServer({ redirect_uri: null }));
    const item = await row();
    expect(item.getByTestId('mcp-login-refused').textContent).toMatch(
      /Logins to MCP servers are refused here.*Restart it with “cairn serve --public-url URL” to log in\.$/,
    );
    expect(item.queryByRole('button', { name: 'Log in' })).toBeNull();
    expect(item.queryByTestId('mcp-redirect-uri')).toBeNull();
  });

  it('warns that tokens are kept in memory only without a keychain, in Chinese too', async () => {
    setup(httpServer({ token_storage: 'memory' }), { locale: 'zh-CN' });
    const item = await row();
    expect(item.getByTestId('mcp-login-memory').textContent).toBe(
      '此处没有系统钥匙串：登录令牌仅保存在内存中，Cairn 停止后即丢失。',
    );
    expect(item.getByRole('button', { name: '登录' })).toBeTruthy();
  });

  it('shows nothing of logins for a stdio server', async () => {
    setup(httpServer({ transport: 'stdio', url: null, command: 'node server.js', redirect_uri: null }));
    const item = await row();
    expect(item.queryByTestId('mcp-login')).toBeNull();
    expect(item.queryByTestId('mcp-login-badge')).toBeNull();
  });
});

describe('the OAuth part of the server form', () => {
  it('shows the saved settings and saves them back, a new client secret through PUT …/secrets only', async () => {
    const api = setup(
      httpServer({
        oauth: {
          client_id: 'cairn-app',
          client_secret: { secret: true, has_value: true },
          scopes: ['mcp:read', 'mcp:write'],
          client_metadata_url: 'https://cairn.example.com/client.json',
        },
      }),
    );
    fireEvent.click((await row()).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('form', { name: 'Edit remote' }));
    expect((form.getByLabelText('Client ID') as HTMLInputElement).value).toBe('cairn-app');
    expect((form.getByLabelText('Scopes') as HTMLInputElement).value).toBe('mcp:read mcp:write');
    expect((form.getByLabelText('Client metadata URL') as HTMLInputElement).value).toBe(
      'https://cairn.example.com/client.json',
    );
    const secret = form.getByLabelText('Client secret') as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.value).toBe('');

    fireEvent.input(form.getByLabelText('Scopes'), { target: { value: 'mcp:read, admin' } });
    fireEvent.input(secret, { target: { value: 'new-client-secret' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));

    const patch = api.requests.find((r) => r.method === 'PATCH')!;
    expect((patch.body as { oauth: unknown }).oauth).toEqual({
      client_id: 'cairn-app',
      client_secret: { secret: true },
      scopes: ['mcp:read', 'admin'],
      client_metadata_url: 'https://cairn.example.com/client.json',
    });
    expect(JSON.stringify(patch.body)).not.toContain('new-client-secret');
    expect(api.requests.find((r) => r.method === 'PUT')!.body).toEqual({
      oauth_client_secret: 'new-client-secret',
    });
  });

  it('says where a client secret given as text is kept, in English and Chinese', async () => {
    setup(httpServer({ oauth: { client_id: 'cairn-app' } }));
    fireEvent.click((await row()).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('form', { name: 'Edit remote' }));
    expect(form.queryByTestId('mcp-oauth-secret-text')).toBeNull();
    fireEvent.change(form.getByLabelText('Client secret kind'), { target: { value: 'text' } });
    expect(form.getByTestId('mcp-oauth-secret-text').textContent).toMatch(
      /stored in Cairn’s database and shown back in settings.*“Secret” to keep it in the keychain/,
    );
    fireEvent.change(form.getByLabelText('Client secret kind'), { target: { value: 'secret' } });
    expect(form.queryByTestId('mcp-oauth-secret-text')).toBeNull();
    cleanup();
    setup(httpServer({ oauth: { client_id: 'cairn-app', client_secret: 'abc' } }), { locale: 'zh-CN' });
    fireEvent.click((await row()).getByRole('button', { name: '编辑' }));
    expect((await screen.findByTestId('mcp-oauth-secret-text')).textContent).toMatch(/数据库.*钥匙串/);
  });

  it('refuses a client secret without a client ID, naming the field', async () => {
    const api = setup(httpServer());
    fireEvent.click((await row()).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('form', { name: 'Edit remote' }));
    fireEvent.change(form.getByLabelText('Client secret kind'), { target: { value: 'secret' } });
    fireEvent.input(form.getByLabelText('Client secret'), { target: { value: 'x' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    expect((await form.findByRole('alert')).textContent).toMatch(/enter its client ID too/);
    expect(api.requests.some((r) => r.method === 'PATCH')).toBe(false);
  });
});
