import type { BackendInfo, RemoteBackendInput } from '../../sidecar/src/protocol/host';
import { IPC_CHANNELS, type IpcChannel } from './ipc-policy';

/**
 * What the renderer sees as `window.cairn` (renderer/src/api/connection.ts declares the same
 * shape). Each method is one invoke on one known channel; nothing of ipcRenderer itself crosses.
 */
export interface DesktopBridge {
  getBackend(): Promise<BackendInfo>;
  setRemoteBackend(input: RemoteBackendInput): Promise<void>;
  clearRemoteBackend(): Promise<void>;
  pickFolder(): Promise<string | null>;
  openExternal(url: string): Promise<void>;
  appVersion(): Promise<string>;
}

export type Invoke = (channel: IpcChannel, ...args: unknown[]) => Promise<unknown>;

/** Builds the bridge over `ipcRenderer.invoke`; the main process validates every payload again. */
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
    appVersion: () => invoke(IPC_CHANNELS.appVersion) as Promise<string>,
  };
}
