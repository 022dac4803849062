// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnClient } from '../../../sidecar/src/client';
import type { BackendInfo } from '../../../sidecar/src/protocol';
import type { Desktop } from '../../src/api/connection';
import { SettingsPage } from '../../src/components/SettingsPage';
import { I18nProvider } from '../../src/i18n/i18n';
import { fakeBridge, LOCAL_INFO, REMOTE_INFO } from '../support/fake-bridge';
import { fakeServer } from './fake-server';

function setup(options: { info?: BackendInfo | null; remote?: boolean } = {}) {
  const server = fakeServer();
  const backend = { url: 'http://127.0.0.1:1', token: 't' };
  const client = new CairnClient(backend, server.fetch);
  const fake = options.info ? fakeBridge(options.info) : null;
  const desktop: Desktop | null = fake && options.info ? { bridge: fake.bridge, info: options.info } : null;
  render(
    <I18nProvider locale="en">
      <SettingsPage
        client={client}
        backend={backend}
        desktop={desktop}
        remote={options.remote ?? options.info?.mode === 'remote'}
        onClose={() => undefined}
        appVersion="0.9.0"
      />
    </I18nProvider>,
  );
  return { bridge: fake?.bridge ?? null };
}

const backendSection = () => screen.getByRole('heading', { name: 'Backend', level: 2 }).closest('section')!;
const urlField = () => within(backendSection()).getByLabelText('Server address') as HTMLInputElement;
const tokenField = () => within(backendSection()).getByLabelText('Access token') as HTMLInputElement;
const connect = () =>
  fireEvent.click(within(backendSection()).getByRole('button', { name: 'Connect to server' }));

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('Settings → Backend', () => {
  it('is not there in a browser', async () => {
    setup({ info: null });
    await screen.findByRole('heading', { name: 'Models', level: 2 });
    expect(screen.queryByRole('heading', { name: 'Backend' })).toBeNull();
    expect(screen.queryByLabelText('Access token')).toBeNull();
  });

  it('says the desktop app runs on this computer and who chose it', () => {
    setup({ info: LOCAL_INFO });
    const section = within(backendSection());
    expect(section.getByText('This computer')).toBeTruthy();
    expect(section.getByText('Cairn, which started its own server on this computer')).toBeTruthy();
    // Local mode: nothing to go back to, and no test page.
    expect(section.queryByRole('button', { name: 'Use this computer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test backend' })).toBeNull();
  });

  it('explains missing fields before asking the host anything', () => {
    const { bridge } = setup({ info: LOCAL_INFO });
    connect();
    const section = within(backendSection());
    expect(section.getByText('Enter the server’s full address, starting with https://.')).toBeTruthy();
    expect(section.getByText('Enter the server’s access token.')).toBeTruthy();
    expect(urlField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(urlField());

    // Not http(s), or with credentials in it (which would otherwise be dropped without a word).
    for (const url of ['ftp://cairn.example.com', 'https://me:secret@cairn.example.com']) {
      fireEvent.input(urlField(), { target: { value: url } });
      fireEvent.input(tokenField(), { target: { value: 'tok' } });
      connect();
      expect(section.getByText('Enter the server’s full address, starting with https://.')).toBeTruthy();
    }
    expect(bridge!.setRemoteBackend).not.toHaveBeenCalled();
  });

  it('hands URL and token to the host, never keeps the token in the page, and shows the host’s refusal', async () => {
    const { bridge } = setup({ info: LOCAL_INFO });
    const token = 'secret-token-1234567890';
    bridge!.setRemoteBackend.mockRejectedValueOnce(
      new Error(`Use https:// for a server that is not on this computer (token ${token} not stored).`),
    );
    fireEvent.input(urlField(), { target: { value: 'http://cairn.example.com/' } });
    fireEvent.input(tokenField(), { target: { value: token } });
    connect();

    expect(bridge!.setRemoteBackend).toHaveBeenCalledExactlyOnceWith({
      url: 'http://cairn.example.com',
      token,
    });
    expect(tokenField().value).toBe('');
    const alert = await within(backendSection()).findByRole('alert');
    expect(alert.textContent).toBe(
      'The backend was not changed: Use https:// for a server that is not on this computer (token •••• not stored).',
    );
    expect(document.body.innerHTML).not.toContain(token);
    // The form is usable again for a corrected address.
    expect(urlField().disabled).toBe(false);
  });

  it('shows the host’s own words when Electron wraps its error', async () => {
    const { bridge } = setup({ info: LOCAL_INFO });
    bridge!.setRemoteBackend.mockRejectedValueOnce(
      new Error(
        "Error invoking remote method 'cairn:set-remote-backend': Error: The server at https://cairn.example.com did not answer like Cairn.",
      ),
    );
    fireEvent.input(urlField(), { target: { value: 'https://cairn.example.com' } });
    fireEvent.input(tokenField(), { target: { value: 'tok' } });
    connect();
    const alert = await within(backendSection()).findByRole('alert');
    expect(alert.textContent).toBe(
      'The backend was not changed: The server at https://cairn.example.com did not answer like Cairn.',
    );
  });

  it('stays busy after the host accepted (it reloads the window)', async () => {
    const { bridge } = setup({ info: LOCAL_INFO });
    fireEvent.input(urlField(), { target: { value: 'https://cairn.example.com' } });
    fireEvent.input(tokenField(), { target: { value: 'tok' } });
    connect();
    await waitFor(() => expect(bridge!.setRemoteBackend).toHaveBeenCalled());
    expect(within(backendSection()).getByRole('button', { name: 'Switching…' })).toBeTruthy();
    expect(urlField().disabled).toBe(true);
  });

  it('shows the remote server and goes back to this computer only after confirmation', async () => {
    const { bridge } = setup({ info: REMOTE_INFO });
    const section = within(backendSection());
    expect(section.getByTestId('backend-url').textContent).toBe('https://cairn.example.com');
    expect(section.getByText('These settings (the token is kept in the system keychain)')).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(REMOTE_INFO.token);
    expect(tokenField().value).toBe('');

    fireEvent.click(section.getByRole('button', { name: 'Use this computer' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bridge!.clearRemoteBackend).not.toHaveBeenCalled();

    fireEvent.click(section.getByRole('button', { name: 'Use this computer' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Use this computer' }),
    );
    await waitFor(() => expect(bridge!.clearRemoteBackend).toHaveBeenCalledTimes(1));
  });

  it('says the environment chose the backend and disables the form', () => {
    const { bridge } = setup({ info: { ...REMOTE_INFO, source: 'environment' } });
    const section = within(backendSection());
    expect(
      section.getByText(
        'CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN set the backend, so it cannot be changed here. Change or unset them and start Cairn again.',
      ),
    ).toBeTruthy();
    expect(urlField().disabled).toBe(true);
    expect(tokenField().disabled).toBe(true);
    expect((section.getByRole('button', { name: 'Connect to server' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((section.getByRole('button', { name: 'Use this computer' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.submit(urlField().closest('form')!);
    expect(bridge!.setRemoteBackend).not.toHaveBeenCalled();
    // Testing the connection is still possible.
    expect(section.getByRole('button', { name: 'Test backend' })).toBeTruthy();
  });
});

describe('Settings → Test backend entry', () => {
  it('exists in desktop remote mode', () => {
    setup({ info: REMOTE_INFO });
    expect(screen.getByRole('button', { name: 'Test backend' })).toBeTruthy();
  });

  it('exists in a browser on a remote server', () => {
    setup({ info: null, remote: true });
    expect(screen.getByRole('heading', { name: 'Server', level: 2 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Test backend' })).toBeTruthy();
  });

  it('does not exist on a local server, in a browser or the desktop app', () => {
    setup({ info: null, remote: false });
    expect(screen.queryByRole('button', { name: 'Test backend' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Server' })).toBeNull();
    cleanup();
    setup({ info: LOCAL_INFO, remote: false });
    expect(screen.queryByRole('button', { name: 'Test backend' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Test backend' })).toBeNull();
  });
});
