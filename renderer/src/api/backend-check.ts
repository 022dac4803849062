import { ApiError, type Backend, CairnClient, socketUrl } from '../../../sidecar/src/client';
import { type Capabilities, WS_CLOSE_UNAUTHENTICATED, WsServerMessage } from '../../../sidecar/src/protocol';

export const CHECK_STEPS = ['health', 'capabilities', 'about', 'websocket'] as const;
export type CheckStepId = (typeof CHECK_STEPS)[number];

/** Why a step failed, in the terms a person can act on. */
export type CheckFailure =
  | 'unreachable'
  | 'redirect'
  | 'not_cairn'
  | 'token_rejected'
  | 'websocket_refused'
  | 'error';

/** What a passed step learned about the server. */
export interface CheckFindings {
  version: string | null;
  mode: Capabilities['mode'] | null;
  runtime: { node: string; platform: string } | null;
}

export type CheckStep =
  | { id: CheckStepId; status: 'pending' | 'running' | 'skipped' }
  | ({ id: CheckStepId; status: 'ok'; latencyMs: number } & CheckFindings)
  | { id: CheckStepId; status: 'failed'; latencyMs: number; failure: CheckFailure; message: string };

export interface BackendCheckOptions {
  fetchImpl?: typeof fetch;
  WebSocketImpl?: typeof WebSocket;
  /** How long the WebSocket may take to authenticate. */
  socketTimeoutMs?: number;
  now?: () => number;
  /** Stops before the next step (the page was closed). */
  signal?: AbortSignal;
  /** Called with the whole list each time a step changes. */
  onProgress?(steps: CheckStep[]): void;
}

/**
 * Tests a backend the way the app uses it: health without the token, capabilities and about with it,
 * then a WebSocket authenticate round trip. Each step reports its latency and, when it fails, why. Once
 * the health check fails nothing else can be learned, so the rest is skipped.
 */
export async function checkBackend(
  backend: Backend,
  options: BackendCheckOptions = {},
): Promise<CheckStep[]> {
  const now = options.now ?? (() => performance.now());
  const client = new CairnClient(backend, options.fetchImpl);
  const steps: CheckStep[] = CHECK_STEPS.map((id) => ({ id, status: 'pending' }));
  const set = (step: CheckStep) => {
    steps[CHECK_STEPS.indexOf(step.id)] = step;
    options.onProgress?.(steps.slice());
  };

  const run = async (id: CheckStepId, action: () => Promise<Partial<CheckFindings>>): Promise<boolean> => {
    if (options.signal?.aborted) return false;
    set({ id, status: 'running' });
    const started = now();
    try {
      const result = await action();
      set({
        id,
        status: 'ok',
        latencyMs: now() - started,
        version: null,
        mode: null,
        runtime: null,
        ...result,
      });
      return true;
    } catch (error) {
      const { failure, message } = classify(error, id);
      set({ id, status: 'failed', latencyMs: now() - started, failure, message });
      return false;
    }
  };

  const healthy = await run('health', async () => ({
    version: (await client.health()).version,
  }));
  if (!healthy) {
    for (const id of CHECK_STEPS.slice(1)) set({ id, status: 'skipped' });
    return steps;
  }
  await run('capabilities', async () => {
    const caps = await client.capabilities();
    return { version: caps.version, mode: caps.mode };
  });
  await run('about', async () => {
    const about = await client.about();
    return { version: about.version, runtime: { node: about.node, platform: about.platform } };
  });
  await run('websocket', async () => {
    await authenticateSocket(backend, options.WebSocketImpl ?? WebSocket, options.socketTimeoutMs ?? 10_000);
    return {};
  });
  return steps;
}

/** A failed WebSocket step, already classified. */
class SocketFailure extends Error {
  constructor(
    readonly failure: CheckFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Opens the event socket, authenticates, and closes it again; rejects with a SocketFailure. */
export function authenticateSocket(
  backend: Backend,
  WebSocketImpl: typeof WebSocket,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const socket = new WebSocketImpl(socketUrl(backend.url));
    const finish = (failure: SocketFailure | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      if (failure) reject(failure);
      else resolve();
    };
    const timer = setTimeout(
      () =>
        finish(
          new SocketFailure('websocket_refused', `No answer to authentication within ${timeoutMs / 1000} s.`),
        ),
      timeoutMs,
    );
    socket.onopen = () => socket.send(JSON.stringify({ type: 'authenticate', token: backend.token }));
    socket.onmessage = (message) => {
      let parsed: ReturnType<typeof WsServerMessage.safeParse>;
      try {
        parsed = WsServerMessage.safeParse(JSON.parse(String(message.data)));
      } catch {
        return finish(new SocketFailure('not_cairn', 'The socket answered with something that is not JSON.'));
      }
      if (parsed.success && parsed.data.type === 'authenticated') finish(null);
    };
    socket.onclose = (event) => {
      if (event.code === WS_CLOSE_UNAUTHENTICATED) {
        return finish(new SocketFailure('token_rejected', 'The server closed the socket: token rejected.'));
      }
      const reason = event.reason ? `: ${event.reason}` : '';
      finish(new SocketFailure('websocket_refused', `The socket closed (code ${event.code}${reason}).`));
    };
    // A browser tells nothing more about a failed handshake; the close event that follows has code 1006.
    socket.onerror = () => undefined;
  });
}

function classify(error: unknown, step: CheckStepId): { failure: CheckFailure; message: string } {
  if (error instanceof SocketFailure) return { failure: error.failure, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError)) return { failure: 'error', message };
  if (error.code === 'network') return { failure: 'unreachable', message };
  if (error.code === 'redirect') return { failure: 'redirect', message };
  if (error.status === 401) return { failure: 'token_rejected', message };
  // Anything but a Cairn health answer means the address is not a Cairn server.
  if (step === 'health' || error.code === 'not_cairn' || error.code === 'bad_response') {
    return { failure: 'not_cairn', message };
  }
  return { failure: 'error', message };
}
