import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DesktopHost } from '../src/desktop-host';
import { IPC_CHANNELS } from '../src/ipc-policy';
import { FakeAdapter, FakeSupervisor } from './support/fake-host';
import { cleanUpHosts, nextTick, setup, tempFolder } from './support/host-setup';

afterEach(cleanUpHosts);

describe('DesktopHost: instance, window, bridge and quit', () => {
  it('quits at once without the single-instance lock, touching nothing else', async () => {
    const { adapter, host, supervisors } = setup();
    adapter.lockGranted = false;
    expect(await host.run()).toBe(false);
    expect(adapter.quits).toBe(1);
    expect(adapter.windows).toHaveLength(0);
    expect(supervisors).toHaveLength(0);
    expect(adapter.ipc.size).toBe(0);
  });

  it('focuses the existing window when a second instance starts', async () => {
    const { adapter, host } = setup();
    await host.run();
    adapter.secondInstance();
    expect(adapter.windows).toHaveLength(1);
    expect(adapter.window.focused).toBe(1);
  });

  it('in local mode starts one sidecar and hands out its backend once ready', async () => {
    const { adapter, host, supervisors } = setup();
    expect(await host.run()).toBe(true);
    expect(supervisors).toHaveLength(1);
    await nextTick();
    expect(supervisors[0]!.started).toBe(1);

    const pending = adapter.invoke(IPC_CHANNELS.getBackend);
    supervisors[0]!.becomeReady('http://127.0.0.1:40001', 'local-token');
    expect(await pending).toEqual({
      url: 'http://127.0.0.1:40001',
      token: 'local-token',
      mode: 'local',
      source: 'local',
    });
  });

  it('opens one guarded window on app://cairn, served from the renderer folder', async () => {
    const { adapter, host } = setup();
    await host.run();
    const window = adapter.window;
    expect(window.loaded).toEqual(['app://cairn/']);
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(window.options.webPreferences?.preload).toBe(
      path.join(adapter.appPath, 'dist', 'electron', 'preload.cjs'),
    );
    for (const l of window.listeners.readyToShow) l();
    expect(window.shown).toBe(1);

    const serve = adapter.protocols.get('app');
    const page = await serve!(new Request('app://cairn/sessions/1'));
    expect(await page.text()).toBe('<title>Cairn UI</title>');
  });

  it('keeps the window on the app and sends web links to the browser', async () => {
    const { adapter, host } = setup();
    await host.run();
    const window = adapter.window;
    expect(window.emit('navigate', 'app://cairn/other')).toBe(false);
    expect(window.emit('navigate', 'https://app.example.com.evil.com/')).toBe(true);
    expect(window.emit('navigate', 'file:///etc/passwd')).toBe(true);
    expect(window.emit('redirect', 'https://example.com/')).toBe(true);
    expect(window.emit('frameNavigate', 'https://example.com/frame', false)).toBe(true);
    expect(window.windowOpen!('https://docs.example.com/a')).toEqual({ action: 'deny' });
    expect(window.windowOpen!('javascript:alert(1)')).toEqual({ action: 'deny' });
    await nextTick();
    expect(adapter.opened).toEqual(['https://app.example.com.evil.com/', 'https://docs.example.com/a']);

    let webviewPrevented = false;
    for (const l of window.listeners.webview) {
      l({
        preventDefault: () => {
          webviewPrevented = true;
        },
      });
    }
    expect(webviewPrevented).toBe(true);
    expect(window.permission!('clipboard-sanitized-write', 'app://cairn/')).toBe(true);
    expect(window.permission!('clipboard-sanitized-write', 'https://evil.com/')).toBe(false);
    expect(window.permission!('media', 'app://cairn/')).toBe(false);
    expect(window.permission!('notifications', 'app://cairn/')).toBe(false);
  });

  it('refuses IPC from any frame but the window main frame, without running the handler', async () => {
    const { adapter, host } = setup();
    await host.run();
    const main = adapter.window.mainFrame!;
    const untrusted = [
      { ...main, parent: main, routingId: 2 },
      { ...main, url: 'https://evil.com/' },
      { ...main, url: 'file:///tmp/index.html' },
      { url: 'app://cairn/', parent: null, processId: 99, routingId: 1 },
      null,
    ];
    for (const frame of untrusted) {
      await expect(
        adapter.invoke(IPC_CHANNELS.openExternal, ['https://example.com/'], frame),
      ).rejects.toThrow(/only available to the Cairn window/);
    }
    expect(adapter.opened).toEqual([]);
    await adapter.invoke(IPC_CHANNELS.openExternal, ['https://example.com/']);
    expect(adapter.opened).toEqual(['https://example.com/']);
  });

  it('opens only http(s) links through the bridge', async () => {
    const { adapter, host } = setup();
    await host.run();
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'http://user:pw@x.com/', 42]) {
      await expect(adapter.invoke(IPC_CHANNELS.openExternal, [url])).rejects.toThrow(
        /Only http:\/\/ and https:\/\//,
      );
    }
    expect(adapter.opened).toEqual([]);
  });

  it('opens a login page only over https, or http to this computer, on its own channel', async () => {
    const { adapter, host } = setup();
    await host.run();
    for (const url of [
      'http://auth.example.com/authorize',
      'javascript:alert(1)',
      'https://u:p@a.example/',
      7,
    ]) {
      await expect(adapter.invoke(IPC_CHANNELS.openLoginUrl, [url])).rejects.toThrow(/only over https:\/\//);
    }
    expect(adapter.opened).toEqual([]);
    await adapter.invoke(IPC_CHANNELS.openLoginUrl, ['https://auth.example.com/authorize?state=s']);
    await adapter.invoke(IPC_CHANNELS.openLoginUrl, ['http://127.0.0.1:4100/authorize']);
    expect(adapter.opened).toEqual([
      'https://auth.example.com/authorize?state=s',
      'http://127.0.0.1:4100/authorize',
    ]);
  });

  it('picks a folder with a dialog on the window, and answers the version', async () => {
    const { adapter, host } = setup();
    await host.run();
    expect(await adapter.invoke(IPC_CHANNELS.pickFolder)).toBe('/home/u/project');
    expect(adapter.dialogCalls[0]!.window).toBe(adapter.window);
    expect(adapter.dialogCalls[0]!.options.properties).toContain('openDirectory');
    adapter.dialogAnswer = { canceled: true, filePaths: [] };
    expect(await adapter.invoke(IPC_CHANNELS.pickFolder)).toBeNull();
    expect(await adapter.invoke(IPC_CHANNELS.appVersion)).toBe('1.2.3');
  });

  it('quits only after the sidecar has stopped', async () => {
    const { adapter, host, supervisors } = setup();
    await host.run();
    const supervisor = supervisors[0]!;
    supervisor.holdStop = true;

    expect(adapter.beforeQuit()).toBe(true);
    expect(adapter.beforeQuit()).toBe(true);
    await nextTick();
    expect(supervisor.stopCalls).toBe(1);
    expect(adapter.quits).toBe(0);

    supervisor.release();
    await nextTick();
    expect(adapter.quits).toBe(1);
    // The second quit goes through.
    expect(adapter.beforeQuit()).toBe(false);
    expect(supervisor.stopCalls).toBe(1);
  });

  it('quits anyway when the sidecar does not stop in time', async () => {
    const userData = tempFolder('electron-host-userdata');
    const adapter = new FakeAdapter(userData, userData);
    const supervisor = new FakeSupervisor();
    supervisor.holdStop = true;
    const host = new DesktopHost({ adapter, env: {}, createSupervisor: () => supervisor, stopTimeoutMs: 20 });
    await host.run();
    expect(adapter.beforeQuit()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(adapter.quits).toBe(1);
    expect(adapter.logs.some((line) => /did not stop within 20 ms/.test(line))).toBe(true);
  });

  it('quits when the last window closes', async () => {
    const { adapter, host } = setup();
    await host.run();
    adapter.window.close();
    adapter.allWindowsClosed();
    expect(adapter.quits).toBe(1);
  });

  it('on macOS stays open without windows and reopens one from the dock or a second launch', async () => {
    const { adapter, host, supervisors } = setup();
    adapter.platform = 'darwin';
    await host.run();
    adapter.window.close();
    adapter.allWindowsClosed();
    expect(adapter.quits).toBe(0);
    // IPC from the closed window's frame is refused: there is no window to trust.
    await expect(adapter.invoke(IPC_CHANNELS.appVersion, [], adapter.window.mainFrame)).rejects.toThrow(
      /only available/,
    );
    adapter.activate();
    expect(adapter.windows).toHaveLength(2);
    adapter.window.close();
    adapter.secondInstance();
    expect(adapter.windows).toHaveLength(3);
    expect(adapter.window.loaded).toEqual(['app://cairn/']);
    // Still the one sidecar.
    expect(supervisors).toHaveLength(1);
  });
});
