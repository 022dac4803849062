// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import { SettingsPage } from '../../src/components/SettingsPage';
import { I18nProvider } from '../../src/i18n/i18n';
import { REMOTE_INFO } from '../support/fake-bridge';
import { fakeSocketServer } from '../support/fake-socket';
import { fakeServer } from './fake-server';

// The fake server takes the token 't'; its WebSocket twin takes the same token at the same address.
const URL_ = 'https://cairn.example.com';

function setup(token: string, options: { reachable?: boolean } = {}) {
  const server = fakeServer();
  const reachable = options.reachable ?? true;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return server.fetch(input, init);
    }),
  );
  const sockets = fakeSocketServer(new Map(reachable ? [['wss://cairn.example.com/api/ws', 't']] : []));
  vi.stubGlobal('WebSocket', sockets.WebSocket);
  const backend = { url: URL_, token };
  render(
    <I18nProvider locale="en">
      <SettingsPage
        client={new CairnClient(backend, server.fetch)}
        backend={backend}
        desktop={{ bridge: {} as never, info: { ...REMOTE_INFO, url: URL_, token } }}
        remote
        onClose={() => undefined}
        appVersion="0.9.0"
      />
    </I18nProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Test backend' }));
  return { server, sockets };
}

const step = (name: string) => screen.getByText(name).closest('li') as HTMLElement;
const finished = () =>
  waitFor(() => expect(screen.getByRole('button', { name: 'Run again' })).toBeTruthy(), { timeout: 5000 });

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Test backend page', () => {
  it('runs health, capabilities, about and the WebSocket sign-in, each with version and latency', async () => {
    const { server, sockets } = setup('t');
    expect(screen.getByRole('heading', { name: 'Test backend', level: 1 })).toBeTruthy();
    await finished();
    for (const name of [
      'Health check (without the token)',
      'Capabilities (with the token)',
      'Server information',
      'Live connection (WebSocket sign-in)',
    ]) {
      expect(step(name).dataset.status, name).toBe('ok');
      expect(within(step(name)).getByText(/^\d+ ms$/)).toBeTruthy();
    }
    expect(within(step('Health check (without the token)')).getByText('Cairn 1.2.3')).toBeTruthy();
    expect(within(step('Capabilities (with the token)')).getByText('Mode: Remote')).toBeTruthy();
    expect(within(step('Server information')).getByText('Node 20.18.0 on linux')).toBeTruthy();
    expect(screen.getByText('Every check passed.')).toBeTruthy();

    // Health goes without the token; the others with it.
    const byPath = (path: string) => server.requests.find((r) => r.path === path);
    expect(byPath('/api/health')?.authorization).toBeUndefined();
    expect(byPath('/api/capabilities')?.authorization).toBe('Bearer t');
    expect(byPath('/api/about')?.authorization).toBe('Bearer t');
    expect(sockets.sockets[0]?.sent[0]).toEqual({ type: 'authenticate', token: 't' });
  });

  it('says the token was refused, over HTTP and on the socket', async () => {
    setup('wrong-token');
    await finished();
    expect(step('Health check (without the token)').dataset.status).toBe('ok');
    for (const name of [
      'Capabilities (with the token)',
      'Server information',
      'Live connection (WebSocket sign-in)',
    ]) {
      expect(step(name).dataset.status, name).toBe('failed');
      expect(
        within(step(name)).getByText(
          'The server refused the token. Use the token the server was started with.',
        ),
      ).toBeTruthy();
    }
    expect(screen.getByText('Some checks failed; see above.')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain('wrong-token');
  });

  it('says the server cannot be reached and skips what depends on it', async () => {
    setup('t', { reachable: false });
    await finished();
    const health = step('Health check (without the token)');
    expect(health.dataset.status).toBe('failed');
    expect(
      within(health).getByText(
        'The server cannot be reached. Check the address, that the server is running, and the network in between. If the address redirects elsewhere, use the final address: Cairn never follows redirects.',
      ),
    ).toBeTruthy();
    expect(
      within(health).getByText(/^Details: Cannot reach the Cairn server at https:\/\/cairn\.example\.com/),
    ).toBeTruthy();
    expect(step('Live connection (WebSocket sign-in)').dataset.status).toBe('skipped');
  });

  it('goes back to settings with the button or Escape', async () => {
    setup('t');
    await finished();
    fireEvent.keyDown(screen.getByRole('heading', { name: 'Test backend' }), { key: 'Escape' });
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Test backend' }));
    await finished();
    fireEvent.click(screen.getByRole('button', { name: 'Back to settings' }));
    expect(screen.getByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
  });
});
