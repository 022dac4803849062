import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../src/ipc-policy';
import { REMOTE_TOKEN_ACCOUNT } from '../src/remote-backend-store';
import { cairnLikeServer, cleanUpHosts, nextTick, setup } from './support/host-setup';

afterEach(cleanUpHosts);

describe('DesktopHost: local or remote backend', () => {
  it('in remote mode from the environment starts no sidecar and will not be switched from the app', async () => {
    const { adapter, host, supervisors } = setup({
      CAIRN_BACKEND_URL: 'https://cairn.example.com/',
      CAIRN_BACKEND_TOKEN: 'env-token',
    });
    await host.run();
    await nextTick();
    expect(supervisors).toHaveLength(0);
    expect(await adapter.invoke(IPC_CHANNELS.getBackend)).toEqual({
      url: 'https://cairn.example.com',
      token: 'env-token',
      mode: 'remote',
      source: 'environment',
    });
    await expect(
      adapter.invoke(IPC_CHANNELS.setRemoteBackend, [{ url: 'https://other.example.com', token: 't' }]),
    ).rejects.toThrow(/set by CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN/);
    await expect(adapter.invoke(IPC_CHANNELS.clearRemoteBackend)).rejects.toThrow(/Unset both/);
    await expect(adapter.invoke(IPC_CHANNELS.pickFolder)).rejects.toThrow(
      /projects are folders on the server/,
    );
    expect(adapter.dialogCalls).toHaveLength(0);
  });

  it('stops with a dialog when only half of the remote backend is in the environment', async () => {
    const { adapter, host, supervisors } = setup({ CAIRN_BACKEND_URL: 'https://cairn.example.com' });
    expect(await host.run()).toBe(false);
    expect(adapter.errors).toEqual([
      { title: 'Cairn cannot start', content: expect.stringMatching(/CAIRN_BACKEND_TOKEN is not/) },
    ]);
    expect(adapter.quits).toBe(1);
    expect(adapter.windows).toHaveLength(0);
    expect(supervisors).toHaveLength(0);
    // Nothing to wait for on the way out.
    expect(adapter.beforeQuit()).toBe(false);
  });

  it('uses a remote backend saved in settings, with no sidecar', async () => {
    const { adapter, host, supervisors, userData } = setup();
    fs.writeFileSync(
      path.join(userData, 'remote-backend.json'),
      JSON.stringify({ url: 'https://saved.example.com' }),
    );
    await adapter.keychain.set(REMOTE_TOKEN_ACCOUNT, 'saved-token');
    await host.run();
    await nextTick();
    expect(supervisors).toHaveLength(0);
    expect(await adapter.invoke(IPC_CHANNELS.getBackend)).toEqual({
      url: 'https://saved.example.com',
      token: 'saved-token',
      mode: 'remote',
      source: 'settings',
    });
  });

  it('lets the environment win over settings', async () => {
    const { adapter, host, userData } = setup({
      CAIRN_BACKEND_URL: 'https://env.example.com',
      CAIRN_BACKEND_TOKEN: 'e',
    });
    fs.writeFileSync(
      path.join(userData, 'remote-backend.json'),
      JSON.stringify({ url: 'https://saved.example.com' }),
    );
    await adapter.keychain.set(REMOTE_TOKEN_ACCOUNT, 'saved-token');
    await host.run();
    expect(await adapter.invoke(IPC_CHANNELS.getBackend)).toMatchObject({
      url: 'https://env.example.com',
      source: 'environment',
    });
  });

  it('refuses a plain-http remote backend with a clear message and changes nothing', async () => {
    const { adapter, host, supervisors, userData } = setup();
    await host.run();
    await expect(
      adapter.invoke(IPC_CHANNELS.setRemoteBackend, [{ url: 'http://example.com', token: 'tok' }]),
    ).rejects.toThrow(
      'The backend at example.com must use https://: plain http would send the token unencrypted.',
    );
    await expect(
      adapter.invoke(IPC_CHANNELS.setRemoteBackend, [{ url: 'https://x.example.com' }]),
    ).rejects.toThrow(/needs a URL and a token/);
    expect(fs.existsSync(path.join(userData, 'remote-backend.json'))).toBe(false);
    expect(adapter.keychain.entries.size).toBe(0);
    expect(supervisors[0]!.stopCalls).toBe(0);
    expect(adapter.window.reloads).toBe(0);
  });

  it('refuses a remote backend whose check fails, keeping the local sidecar', async () => {
    const { adapter, host, supervisors } = setup();
    await host.run();
    const url = await cairnLikeServer('right-token');
    await expect(
      adapter.invoke(IPC_CHANNELS.setRemoteBackend, [{ url, token: 'wrong-token' }]),
    ).rejects.toThrow(/refused the token/);
    expect(adapter.keychain.entries.size).toBe(0);
    expect(supervisors[0]!.stopCalls).toBe(0);
  });

  it('switches to a checked remote backend: saves it, stops the sidecar, reloads; and back again', async () => {
    const { adapter, host, supervisors, userData } = setup();
    await host.run();
    const url = await cairnLikeServer('right-token');

    await adapter.invoke(IPC_CHANNELS.setRemoteBackend, [{ url: `${url}/`, token: 'right-token' }]);
    expect(supervisors[0]!.stopped).toBe(true);
    expect(adapter.keychain.entries.get(REMOTE_TOKEN_ACCOUNT)).toBe('right-token');
    const saved = fs.readFileSync(path.join(userData, 'remote-backend.json'), 'utf8');
    expect(JSON.parse(saved)).toEqual({ url });
    expect(saved).not.toContain('right-token');
    await nextTick();
    expect(adapter.window.reloads).toBe(1);
    expect(await adapter.invoke(IPC_CHANNELS.getBackend)).toEqual({
      url,
      token: 'right-token',
      mode: 'remote',
      source: 'settings',
    });

    await adapter.invoke(IPC_CHANNELS.clearRemoteBackend);
    expect(supervisors).toHaveLength(2);
    await nextTick();
    expect(supervisors[1]!.started).toBe(1);
    expect(adapter.window.reloads).toBe(2);
    expect(adapter.keychain.entries.size).toBe(0);
    expect(fs.existsSync(path.join(userData, 'remote-backend.json'))).toBe(false);
    supervisors[1]!.becomeReady('http://127.0.0.1:40002', 'new-local-token');
    expect(await adapter.invoke(IPC_CHANNELS.getBackend)).toMatchObject({
      mode: 'local',
      token: 'new-local-token',
    });
  });

  it('shows the stderr tail and the diagnostics file when the sidecar fails for good', async () => {
    const { adapter, host, supervisors } = setup();
    await host.run();
    supervisors[0]!.emit({ kind: 'restarting' });
    expect(adapter.errors).toEqual([]);
    supervisors[0]!.emit({
      kind: 'failed',
      message: 'The sidecar crashed 3 times within a minute.',
      stderrTail: 'Error: the data directory is locked by another Cairn process\n',
      diagnosticsFile: '/home/u/.config/Cairn/logs/sidecar-failure-1.json',
    });
    expect(adapter.errors).toHaveLength(1);
    const { title, content } = adapter.errors[0]!;
    expect(title).toMatch(/local backend failed/);
    expect(content).toContain('The sidecar crashed 3 times within a minute.');
    expect(content).toContain('the data directory is locked by another Cairn process');
    expect(content).toContain('/home/u/.config/Cairn/logs/sidecar-failure-1.json');
  });

  it('says nothing about a sidecar that was replaced on purpose', async () => {
    const { adapter, host, supervisors } = setup();
    await host.run();
    const url = await cairnLikeServer('t');
    await adapter.invoke(IPC_CHANNELS.setRemoteBackend, [{ url, token: 't' }]);
    supervisors[0]!.emit({ kind: 'failed', message: 'late', stderrTail: '', diagnosticsFile: null });
    expect(adapter.errors).toEqual([]);
  });
});
