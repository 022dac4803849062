// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackendInfo } from '../../../sidecar/src/protocol';
import { capabilitiesBody } from '../../../sidecar/test/support/api-bodies';
import { Root } from '../../src/components/Root';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeBridge, LOCAL_INFO } from '../support/fake-bridge';
import { fakeSocketServer } from '../support/fake-socket';

// The desktop app's wiring: Root asks the (fake) bridge for its backend, and when the event stream is
// lost or refused it asks again and moves the whole app to the restarted sidecar, keeping the session.

const RESTARTED: BackendInfo = { ...LOCAL_INFO, url: 'http://127.0.0.1:41002', token: 'local-token-B' };
const SESSION = {
  id: 's1',
  project_id: null,
  title: 'Alpha session',
  approval: 'auto',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  running_turn_id: null,
  parent_session_id: null,
  parent_turn_id: null,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Seen {
  origin: string;
  path: string;
  authorization: string | undefined;
}

/** Every live backend answers the few routes the app reads, each with its own token. */
function stubBackends(tokens: Map<string, string>) {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const authorization = (init?.headers as Record<string, string> | undefined)?.authorization;
      seen.push({ origin: url.origin, path: url.pathname, authorization });
      const token = tokens.get(`ws://${url.host}/api/ws`);
      if (token === undefined) throw new TypeError('Failed to fetch');
      if (authorization !== `Bearer ${token}`)
        return json(401, { error: { code: 'unauthorized', message: 'no' } });
      switch (url.pathname) {
        case '/api/capabilities':
          return json(200, capabilitiesBody({ mode: 'local', version: '1.0.0' }));
        case '/api/projects':
          return json(200, { projects: [] });
        case '/api/sessions':
          return json(200, { sessions: [SESSION] });
        case '/api/models':
          return json(200, { models: [], env_overrides: { key: true, model: 'm', base_url: null } });
        case `/api/sessions/${SESSION.id}`:
          return json(200, { ...SESSION, forks: [] });
        case `/api/sessions/${SESSION.id}/turns`:
          return json(200, { turns: [], next_before: null, last_seq: 0 });
        default:
          return json(404, { error: { code: 'not_found', message: url.pathname } });
      }
    }),
  );
  return seen;
}

const wsOf = (info: BackendInfo) => `${info.url.replace(/^http/, 'ws')}/api/ws`;

function setup() {
  const tokens = new Map([[wsOf(LOCAL_INFO), LOCAL_INFO.token]]);
  const seen = stubBackends(tokens);
  const server = fakeSocketServer(tokens);
  vi.stubGlobal('WebSocket', server.WebSocket);
  const fake = fakeBridge(LOCAL_INFO);
  window.cairn = fake.bridge;
  render(
    <I18nProvider locale="en">
      <Root />
    </I18nProvider>,
  );
  /** The host restarted the sidecar: the old one is gone, the new one has another port and token. */
  const restart = () => {
    tokens.delete(wsOf(LOCAL_INFO));
    tokens.set(wsOf(RESTARTED), RESTARTED.token);
    fake.state.info = RESTARTED;
  };
  return { ...fake, seen, server, restart };
}

/** The app with "Alpha session" open and its event stream connected to the first sidecar. */
async function setupWithOpenSession() {
  const t = setup();
  fireEvent.click(await screen.findByRole('button', { name: 'Alpha session' }));
  await screen.findByRole('heading', { name: 'Alpha session', level: 1 });
  await waitFor(() => expect(t.server.openTo(wsOf(LOCAL_INFO))).toHaveLength(1));
  /** The first sidecar's socket goes away: 1006, the process died; 4401, it refused the token. */
  const dropFirst = (code: number) => t.server.openTo(wsOf(LOCAL_INFO))[0]!.drop(code);
  return { ...t, dropFirst };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  delete window.cairn;
  vi.unstubAllGlobals();
});

describe('Root in the desktop app', () => {
  it('moves to the restarted sidecar by itself when the old one dies, keeping the open session', async () => {
    const t = await setupWithOpenSession();

    t.restart();
    t.dropFirst(1006);

    // A new stream to the new address, signed in with the new token, and the session is still shown.
    await waitFor(() => expect(t.server.openTo(wsOf(RESTARTED))).toHaveLength(1), { timeout: 5000 });
    const socket = t.server.openTo(wsOf(RESTARTED))[0]!;
    expect(socket.sent[0]).toEqual({ type: 'authenticate', token: RESTARTED.token });
    await waitFor(() =>
      expect(socket.sent).toContainEqual({ type: 'subscribe', session_id: 's1', after_seq: 0 }),
    );
    expect(screen.getByRole('heading', { name: 'Alpha session', level: 1 })).toBeTruthy();
    expect(screen.queryByText('Connection lost. Reconnecting…')).toBeNull();
    // The session's history was read again from the new sidecar with its token.
    expect(t.seen).toContainEqual({
      origin: RESTARTED.url,
      path: '/api/sessions/s1/turns',
      authorization: `Bearer ${RESTARTED.token}`,
    });
    // Nothing was sent to the new address with the old token.
    expect(
      t.seen.filter((s) => s.origin === RESTARTED.url && s.authorization !== `Bearer ${RESTARTED.token}`),
    ).toEqual([]);
  });

  it('shows the reconnect banner while the host is still starting the new sidecar', async () => {
    const t = await setupWithOpenSession();
    let ready: (info: BackendInfo) => void = () => undefined;
    t.answer(new Promise<BackendInfo>((resolve) => (ready = resolve)));
    t.restart();
    t.dropFirst(1006);
    await screen.findByText('Connection lost. Reconnecting…');
    ready(RESTARTED);
    await waitFor(() => expect(screen.queryByText('Connection lost. Reconnecting…')).toBeNull(), {
      timeout: 5000,
    });
    expect(t.server.openTo(wsOf(RESTARTED))).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Alpha session', level: 1 })).toBeTruthy();
  });

  it('asks the host again when the token is refused (4401), and follows the new token', async () => {
    const t = await setupWithOpenSession();
    t.restart();
    t.dropFirst(4401);
    await waitFor(() => expect(t.server.openTo(wsOf(RESTARTED))).toHaveLength(1), { timeout: 5000 });
    expect(screen.queryByText('The server no longer accepts this token.')).toBeNull();
  });

  it('shows the host’s message on the problem screen when it gives up, and tries again on request', async () => {
    const t = await setupWithOpenSession();
    t.answer(new Error('The Cairn server stopped 3 times in a row. Diagnostics: /tmp/cairn-diag.txt'));
    t.dropFirst(1006);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Cairn has no backend' })).toBeTruthy();
    expect(
      within(alert).getByText('The Cairn server stopped 3 times in a row. Diagnostics: /tmp/cairn-diag.txt'),
    ).toBeTruthy();
    // The failed backend was this computer's own: there is nothing to switch back to.
    expect(within(alert).queryByRole('button', { name: 'Use this computer' })).toBeNull();

    t.restart();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('button', { name: 'Alpha session' });
    await waitFor(() => expect(t.server.openTo(wsOf(RESTARTED))).toHaveLength(1));
  });

  it('shows the problem screen when the host has no backend at start', async () => {
    const t = setup();
    t.answer(new Error('The Cairn server did not start within 20 s.'));
    cleanup();
    render(
      <I18nProvider locale="en">
        <Root />
      </I18nProvider>,
    );
    expect(await screen.findByText('The Cairn server did not start within 20 s.')).toBeTruthy();
    // Not the browser's "enter a server address and token" screen.
    expect(screen.queryByLabelText('Access token')).toBeNull();
  });
});
