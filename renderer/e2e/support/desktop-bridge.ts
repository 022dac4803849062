// The desktop app without Electron (which cannot run here): with the built renderer served from its own
// loopback origin (cairn-ui's serveRendererDist), as Electron serves it from app://cairn, real sidecars
// that accept that origin, and a stand-in for the preload's `window.cairn` whose answers the test
// controls from Node.
import type { BrowserContext } from 'playwright-core';
import type { BackendInfo, RemoteBackendInput } from '../../../sidecar/src/protocol';
import { type RunningServer, startServer } from '../../../sidecar/src/server/start-server';
import { testEnv } from '../../../sidecar/test/support/harness';
import type { ModelServer } from '../../../sidecar/test/support/model-server';

/**
 * A sidecar as the desktop host starts it: loopback, port 0, a token of the host's choosing, no web UI
 * of its own; it accepts requests from the app's origin. Sidecars started one after another on the same
 * data directory are a host restarting a crashed one.
 */
export function startDesktopSidecar(options: {
  dataDir: string;
  model: ModelServer;
  /** Where the renderer is served (cairn-ui's serveRendererDist), standing in for app://cairn. */
  appOrigin: { url: string };
  token: string;
}): Promise<RunningServer> {
  return startServer({
    dataDir: options.dataDir,
    host: '127.0.0.1',
    port: 0,
    env: testEnv(options.model, { CAIRN_TOKEN: options.token }),
    staticDir: null,
    allowedOrigins: [options.appOrigin.url],
  });
}

export interface FakeHost {
  /** getBackend answers this from now on (and answers calls that are waiting). */
  serve(info: BackendInfo): void;
  /** getBackend waits, as the host does while its sidecar restarts. */
  hold(): void;
  /** getBackend rejects with this message, as when the host gives up. */
  fail(message: string): void;
  /** What pickFolder answers; setRemoteBackend rejects with `remoteError` when set. */
  pickFolderAnswer: string | null;
  remoteError: string | null;
  readonly calls: {
    getBackend: number;
    setRemoteBackend: RemoteBackendInput[];
    clearRemoteBackend: number;
    pickFolder: number;
    openExternal: string[];
  };
}

type Answer = { kind: 'serve'; info: BackendInfo } | { kind: 'hold' } | { kind: 'fail'; message: string };

/**
 * Gives every page of the context a `window.cairn` with the preload's six functions, each a call into
 * this process, installed before the app's own scripts run.
 */
export async function installDesktopBridge(context: BrowserContext, initial: BackendInfo): Promise<FakeHost> {
  let answer: Answer = { kind: 'serve', info: initial };
  const waiting: (() => void)[] = [];
  const settle = (next: Answer) => {
    answer = next;
    if (next.kind !== 'hold') for (const wake of waiting.splice(0)) wake();
  };
  const getBackend = async (): Promise<BackendInfo> => {
    while (answer.kind === 'hold') await new Promise<void>((resolve) => waiting.push(resolve));
    if (answer.kind === 'fail') throw new Error(answer.message);
    return answer.info;
  };
  const host: FakeHost = {
    serve: (info) => settle({ kind: 'serve', info }),
    hold: () => settle({ kind: 'hold' }),
    fail: (message) => settle({ kind: 'fail', message }),
    pickFolderAnswer: null,
    remoteError: null,
    calls: { getBackend: 0, setRemoteBackend: [], clearRemoteBackend: 0, pickFolder: 0, openExternal: [] },
  };

  await context.exposeBinding('__cairnHost', async (_source, method: string, arg: unknown) => {
    switch (method) {
      case 'getBackend':
        host.calls.getBackend += 1;
        return getBackend();
      case 'setRemoteBackend':
        host.calls.setRemoteBackend.push(arg as RemoteBackendInput);
        if (host.remoteError) throw new Error(host.remoteError);
        return undefined;
      case 'clearRemoteBackend':
        host.calls.clearRemoteBackend += 1;
        return undefined;
      case 'pickFolder':
        host.calls.pickFolder += 1;
        return host.pickFolderAnswer;
      case 'openExternal':
        host.calls.openExternal.push(String(arg));
        return undefined;
      case 'appVersion':
        return '0.0.0-e2e';
      default:
        throw new Error(`unknown bridge method ${method}`);
    }
  });
  // Runs in the page; written against globalThis so this file needs no DOM types (the bench uses it too).
  await context.addInitScript(() => {
    const page = globalThis as unknown as { __cairnHost(method: string, arg?: unknown): Promise<never> };
    const call = (method: string, arg?: unknown) => page.__cairnHost(method, arg);
    // Like contextBridge: plain data in, a frozen object of functions out.
    Object.defineProperty(globalThis, 'cairn', {
      value: Object.freeze({
        getBackend: () => call('getBackend'),
        setRemoteBackend: (input: { url: string; token: string }) =>
          call('setRemoteBackend', { url: input.url, token: input.token }),
        clearRemoteBackend: () => call('clearRemoteBackend'),
        pickFolder: () => call('pickFolder'),
        openExternal: (url: string) => call('openExternal', url),
        appVersion: () => call('appVersion'),
      }),
    });
  });
  return host;
}
