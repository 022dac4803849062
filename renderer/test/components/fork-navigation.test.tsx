// @vitest-environment happy-dom
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ForkInfo, TurnPage } from '../../../sidecar/src/protocol';
import { capabilitiesBody } from '../../../sidecar/test/support/api-bodies';
import { App } from '../../src/components/App';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeSocketServer } from '../support/fake-socket';
import { withLayout } from '../support/sessions-app';
import { session } from '../support/sessions-backend';
import { approvalFor, storedToolCall, storedTurn } from '../support/tool-calls';

// The app with a session whose turn spawned a fork: the fork's row under the turn follows its events, a
// question the fork asks in the parent names it, "Open" shows the fork's conversation read-only with a
// banner back to the parent, and the session list never lists the fork.

const BACKEND = { url: 'http://127.0.0.1:41001', token: 'tok' };
const WS = 'ws://127.0.0.1:41001/api/ws';

const PARENT = session({ id: 'p', title: 'Parent session' });
const FORK = session({ id: 'f1', title: 'Check the tests', parent_session_id: 'p', parent_turn_id: 't1' });
const RUNNING: ForkInfo = {
  fork_id: 'f1',
  turn_id: 't1',
  task: 'Check the tests',
  status: 'running',
  response: null,
  created_at: '2026-01-01T00:00:01.000Z',
};

/** The parent's turn: the model spawned the fork; the fork's Bash call waits for approval in the parent. */
function parentPage(): TurnPage {
  const spawn = storedToolCall({ id: 'tc-fork', session_id: 'p', name: 'Fork', input: { method: 'spawn' } });
  const forkCall = storedToolCall({ id: 'tc-in-fork', session_id: 'f1', input: { command: 'npm test' } });
  const asked = approvalFor(forkCall, { session_id: 'p', turn_id: 't1', fork_id: 'f1' });
  const turn = { ...storedTurn('t1', [spawn], [asked]), session_id: 'p', status: 'running' as const };
  return { turns: [turn], next_before: null, last_seq: 5 };
}

function forkPage(): TurnPage {
  const turn = { ...storedTurn('ft1', []), session_id: 'f1', prompt: 'Run the tests and report' };
  return { turns: [turn], next_before: null, last_seq: 3 };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function stubBackend() {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      paths.push(url.pathname + url.search);
      switch (url.pathname) {
        case '/api/capabilities':
          return json(200, capabilitiesBody({ mode: 'local', shell: false }));
        case '/api/projects':
          return json(200, { projects: [] });
        case '/api/sessions':
          // The list leaves forks out, as the server does unless asked.
          return json(200, { sessions: [PARENT] });
        case '/api/models':
          return json(200, { models: [], env_overrides: { key: true, model: 'm', base_url: null } });
        case '/api/sessions/p':
          return json(200, { ...PARENT, forks: [RUNNING] });
        case '/api/sessions/p/turns':
          return json(200, parentPage());
        case '/api/sessions/p/events':
          return json(200, { events: [], has_more: false });
        case '/api/sessions/f1':
          return json(200, { ...FORK, forks: [] });
        case '/api/sessions/f1/turns':
          return json(200, forkPage());
        default:
          return json(404, { error: { code: 'not_found', message: url.pathname } });
      }
    }),
  );
  const server = fakeSocketServer(new Map([[WS, BACKEND.token]]));
  vi.stubGlobal('WebSocket', server.WebSocket);
  return { paths, server };
}

withLayout();

describe('forks in the app', () => {
  it('shows the fork under its turn, live; opens it read-only; and goes back to the parent', async () => {
    const { server } = stubBackend();
    render(
      <I18nProvider locale="en">
        <App
          backend={BACKEND}
          desktop={null}
          onDisconnect={() => undefined}
          onBackendChanged={() => undefined}
          onBackendLost={() => undefined}
        />
      </I18nProvider>,
    );
    const nav = await screen.findByRole('navigation', { name: 'Projects' });
    fireEvent.click(await within(nav).findByRole('button', { name: 'Parent session' }));
    await screen.findByRole('heading', { name: 'Parent session', level: 1 });

    const forks = await screen.findByRole('region', { name: 'Forks' });
    const row = within(forks).getByRole('listitem');
    expect(row.textContent).toContain('Check the tests');
    expect(row.textContent).toContain('Running');
    // The fork's approval, asked in the parent, names the fork by its task.
    const approval = screen.getByRole('region', { name: 'Allow Bash?' });
    expect(within(approval).getByText('From fork: Check the tests')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();

    // The fork ends: its row says so, with its response.
    await waitFor(() => expect(server.openTo(WS)).toHaveLength(1));
    const socket = server.openTo(WS)[0]!;
    await waitFor(() =>
      expect(socket.sent).toContainEqual({ type: 'subscribe', session_id: 'p', after_seq: 5 }),
    );
    socket.receive({
      type: 'event',
      event: {
        seq: 6,
        session_id: 'p',
        turn_id: 't1',
        time: '2026-01-01T00:00:09.000Z',
        type: 'fork.updated',
        fork: { ...RUNNING, status: 'completed', response: 'All **12** tests pass.' },
      },
    });
    await waitFor(() => expect(row.textContent).toContain('Done'));
    expect(within(row).getByText('12').tagName).toBe('STRONG');

    // Open: the fork's conversation, read-only, with the way back; the parent stays marked in the list.
    fireEvent.click(within(row).getByRole('button', { name: 'Open the fork “Check the tests”' }));
    await screen.findByRole('heading', { name: 'Check the tests', level: 1 });
    const banner = screen.getByRole('note');
    expect(banner.textContent).toContain('Fork of Parent session · read-only');
    expect(await screen.findByText('Run the tests and report')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Approval' })).toBeNull();
    expect(within(nav).getByRole('button', { name: 'Parent session' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).queryByRole('button', { name: 'Check the tests' })).toBeNull();

    fireEvent.click(within(banner).getByRole('button', { name: 'Back to the parent session' }));
    await screen.findByRole('heading', { name: 'Parent session', level: 1 });
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });
});
