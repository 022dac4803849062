// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { CairnEvent, McpSessionStatus, NewEvent } from '../../../sidecar/src/protocol';
import { McpSessionPanel } from '../../src/components/mcp/McpSessionPanel';
import { TurnStatusLine } from '../../src/components/TurnStatusLine';
import type { Locale } from '../../src/i18n/catalog';
import { I18nProvider } from '../../src/i18n/i18n';
import { applyEvent, type TurnView, turnFromStart } from '../../src/state/turn-view';
import { eventMaker } from '../support/journal-events';
import { liveSource } from '../support/live-source';

const LOGIN = 'https://auth.example.com/authorize?state=abc';
const FRESH = 'https://auth.example.com/fresh';

function status(url: string | null): McpSessionStatus {
  return {
    snapshot_at: '2026-01-01T00:00:00.000Z',
    reset_pending: false,
    servers: [
      {
        server_id: 'srv1',
        name: 'remote',
        transport: 'streamable_http',
        state: 'auth_required',
        error: null,
        authorization_url: url,
        tools: [],
      },
    ],
  };
}

const serverEvent = (state: 'auth_required' | 'connected', url: string | null, turnId = 't1'): NewEvent => ({
  type: 'mcp.server',
  turn_id: turnId,
  server_id: 'srv1',
  name: 'remote',
  state,
  error: null,
  authorization_url: url,
  tools: 0,
});

function panel(current: McpSessionStatus) {
  const asked: string[] = [];
  const client = new CairnClient({ url: 'http://x', token: 't' }, async (input, init) => {
    const url = new URL(String(input));
    asked.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname.endsWith('/events'))
      return new Response(JSON.stringify({ events: [], has_more: false }));
    if (url.pathname.endsWith('/authorize'))
      return new Response(JSON.stringify({ authorization_url: FRESH }));
    return new Response(JSON.stringify(current));
  });
  const make = eventMaker('s1');
  const source = liveSource(make);
  render(
    <I18nProvider locale="en">
      <McpSessionPanel client={client} source={source} sessionId="s1" />
    </I18nProvider>,
  );
  return { asked, source };
}

let opened: MockInstance<typeof window.open>;
beforeEach(() => {
  opened = vi.spyOn(window, 'open').mockImplementation(() => null);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  delete window.cairn;
});

describe('a session’s server that waits for a login', () => {
  it('says so in the panel, and Log in asks for the login rather than opening a page known from before', async () => {
    // The status's page may be of a login that ended (timed out, denied, finished elsewhere).
    const { asked } = panel(status(LOGIN));
    const item = within(await screen.findByRole('listitem', { name: 'remote' }));
    expect(item.getByTestId('mcp-state').textContent).toBe('login required');
    expect(item.getByText('remote waits for you to log in.')).toBeTruthy();
    fireEvent.click(item.getByRole('button', { name: 'Log in' }));
    await item.findByText(/The login page opened in your browser/);
    expect(asked).toContain('POST /api/mcp/servers/srv1/authorize');
    expect(opened.mock.calls).toEqual([[FRESH, '_blank', 'noopener,noreferrer']]);
    // In case the browser blocked the tab opened after the request: the same page as a link.
    const link = item.getByRole('link', { name: 'Open the login page' });
    expect(link.getAttribute('href')).toBe(FRESH);
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('starts a login for the server when no page is known at all', async () => {
    const { asked } = panel(status(null));
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
    expect(asked).toContain('POST /api/mcp/servers/srv1/authorize');
    expect(opened.mock.calls[0]![0]).toBe(FRESH);
  });

  it('shows the error of a server that failed as an error', async () => {
    const failed = { ...status(null).servers[0]!, state: 'failed' as const, error: 'connection refused' };
    panel({ ...status(null), servers: [failed] });
    expect((await screen.findByTestId('mcp-session-error')).className).toMatch(/error-text/);
  });

  it('in the desktop app asks the host to open it, never window.open', async () => {
    const openLoginUrl = vi.fn(async (_url: string) => undefined);
    window.cairn = { openLoginUrl } as unknown as typeof window.cairn;
    panel(status(LOGIN));
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(openLoginUrl).toHaveBeenCalledWith(FRESH));
    expect(opened).not.toHaveBeenCalled();
  });
});

describe('the running turn’s status line', () => {
  const make = eventMaker('s1');
  const start = make({ type: 'turn.started', turn_id: 't1', ordinal: 1, prompt: 'hi' } as NewEvent);
  const run = (...events: NewEvent[]): TurnView =>
    events.reduce(
      (view, e) => applyEvent(view, make(e)),
      turnFromStart(start as Extract<CairnEvent, { type: 'turn.started' }>),
    );
  const line = (view: TurnView, locale: Locale = 'en') =>
    render(
      <I18nProvider locale={locale}>
        <TurnStatusLine turn={view.turn} mcpLogins={view.mcpLogins} />
      </I18nProvider>,
    );

  it('names the server that waits for a login, with Log in opening its page', async () => {
    line(run(serverEvent('auth_required', LOGIN)));
    expect(screen.getByRole('status').textContent).toMatch(
      /Waiting for you to log in to the MCP server remote\./,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(opened.mock.calls).toEqual([[LOGIN, '_blank', 'noopener,noreferrer']]));
  });

  it('says it in Chinese too, without a button for a page that may not be opened', () => {
    line(run(serverEvent('auth_required', 'file:///etc/passwd')), 'zh-CN');
    expect(screen.getByRole('status').textContent).toBe('正在等待您登录 MCP 服务器 remote。');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('stops when the server reports no login page any more (the wait ended, or logins are refused)', () => {
    const ended = run(serverEvent('auth_required', LOGIN), serverEvent('auth_required', null));
    expect(ended.mcpLogins).toEqual([]);
    line(ended);
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    line(run(serverEvent('auth_required', null)));
    expect(screen.queryByText(/Waiting for you to log in/)).toBeNull();
  });

  it('says so when the desktop host does not open the page', async () => {
    window.cairn = {
      openLoginUrl: async () => {
        throw new Error('the host refused it');
      },
    } as unknown as typeof window.cairn;
    line(run(serverEvent('auth_required', LOGIN)));
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not open the login page: the host refused it',
    );
  });

  it('stops once the server connects or the turn ends', () => {
    const connected = run(serverEvent('auth_required', LOGIN), serverEvent('connected', null));
    expect(connected.mcpLogins).toEqual([]);
    line(connected);
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    const ended = run(serverEvent('auth_required', LOGIN), {
      type: 'turn.cancelled',
      turn_id: 't1',
    } as NewEvent);
    line(ended);
    expect(screen.queryByText(/log in/)).toBeNull();
  });
});
