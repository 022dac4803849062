import { vi } from 'vitest';
import type { BackendInfo, DesktopBridge, RemoteBackendInput } from '../../../sidecar/src/protocol';

/**
 * A stand-in for the Electron preload's `window.cairn` (Electron cannot run here). getBackend answers
 * from a queue the test fills: a backend, an error (the host gave up), or a promise the test resolves
 * later (the host waiting for a restarted sidecar); with the queue empty it answers `info`.
 */
export function fakeBridge(info: BackendInfo) {
  const answers: (BackendInfo | Error | Promise<BackendInfo>)[] = [];
  const state = { info };
  const bridge = {
    getBackend: vi.fn(async (): Promise<BackendInfo> => {
      const next = answers.shift() ?? state.info;
      if (next instanceof Error) throw next;
      return next;
    }),
    setRemoteBackend: vi.fn(async (_input: RemoteBackendInput) => undefined),
    clearRemoteBackend: vi.fn(async () => undefined),
    pickFolder: vi.fn(async (): Promise<string | null> => null),
    openExternal: vi.fn(async (_url: string) => undefined),
    openLoginUrl: vi.fn(async (_url: string) => undefined),
    appVersion: vi.fn(async () => '0.0.0-test'),
  } satisfies DesktopBridge;
  return {
    bridge,
    state,
    /** What the next getBackend calls answer, in order. */
    answer(...next: (BackendInfo | Error | Promise<BackendInfo>)[]) {
      answers.push(...next);
    },
  };
}

export const LOCAL_INFO: BackendInfo = {
  url: 'http://127.0.0.1:41001',
  token: 'local-token-A',
  mode: 'local',
  source: 'local',
};

export const REMOTE_INFO: BackendInfo = {
  url: 'https://cairn.example.com',
  token: 'remote-token-SECRET',
  mode: 'remote',
  source: 'settings',
};
