import type { BackendInfo, DesktopBridge } from '../../sidecar/src/protocol/host';
import { IPC_CHANNELS, type IpcChannel } from './ipc-policy';

export type Invoke = (channel: IpcChannel, ...args: unknown[]) => Promise<unknown>;

/** Builds the bridge (`window.cairn`) over `ipcRenderer.invoke`; the main process validates every payload again. */
export function createDesktopBridge(invoke: Invoke): DesktopBridge {
  return {
    getBackend: () => invoke(IPC_CHANNELS.getBackend) as Promise<BackendInfo>,
    // Copy only the two fields, so nothing else the page attached rides along.
    setRemoteBackend: async (input) => {
      await invoke(IPC_CHANNELS.setRemoteBackend, { url: input?.url, token: input?.token });
    },
    clearRemoteBackend: async () => {
      await invoke(IPC_CHANNELS.clearRemoteBackend);
    },
    pickFolder: () => invoke(IPC_CHANNELS.pickFolder) as Promise<string | null>,
    openExternal: async (url) => {
      await invoke(IPC_CHANNELS.openExternal, url);
    },
    openLoginUrl: async (url) => {
      await invoke(IPC_CHANNELS.openLoginUrl, url);
    },
    appVersion: () => invoke(IPC_CHANNELS.appVersion) as Promise<string>,
  };
}
