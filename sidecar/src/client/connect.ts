import type { Capabilities, SessionExport } from '../protocol';
import { EventStream } from './event-stream';
import { type Backend, CairnClient } from './http-client';
import { checkTransport } from './insecure-http';
import { newRequestId } from './request-id';
import { TurnHandle } from './turn-handle';

/**
 * A WebSocket class: the browser's, or the `ws` package's on Node 20 (Node 22 has one built in). Only
 * the constructor and the on* handlers are used; the token goes in the first message, never the URL.
 */
export type WebSocketConstructor = {
  new (url: string, ...rest: never[]): unknown;
  readonly CONNECTING: number;
  readonly OPEN: number;
};

export interface ConnectOptions {
  /** The server's address, e.g. http://127.0.0.1:8765 or https://cairn.example.com. */
  url: string;
  /** The token the server was started with (CAIRN_TOKEN). */
  token: string;
  /** Default: globalThis.WebSocket. */
  WebSocket?: WebSocketConstructor;
  /** Default: globalThis.fetch. */
  fetch?: typeof fetch;
  /**
   * Lets the token go over plain http to another machine (a trusted network only). Without it connect()
   * refuses http:// unless the host is this machine (127.0.0.0/8, ::1, localhost) or the page's origin.
   */
  allowInsecureHttp?: boolean;
}

/** A connection to a Cairn server: the whole typed API as `api`, and shortcuts for what scripts do. */
export interface CairnConnection {
  api: CairnClient;
  /** What the server offers (checked by connect, which is how a wrong token shows at once). */
  capabilities: Capabilities;
  projects: { list: CairnClient['listProjects']; open: CairnClient['openProject'] };
  sessions: {
    list: CairnClient['listSessions'];
    create: CairnClient['createSession'];
    get: CairnClient['getSession'];
    update: CairnClient['updateSession'];
    branch: CairnClient['branchSession'];
    delete: CairnClient['deleteSession'];
    import: CairnClient['importSession'];
  };
  turns: {
    /**
     * Starts a turn. The same requestId again gives back the turn it started (nothing runs twice), so a
     * submit whose answer was lost can be retried; without one a fresh id is made.
     */
    submit(sessionId: string, prompt: string, options?: { requestId?: string }): Promise<TurnHandle>;
    list: CairnClient['listTurns'];
    get: CairnClient['getTurn'];
  };
  questions: { list: CairnClient['questions']; answer: CairnClient['answer'] };
  kernels: {
    list: CairnClient['listKernels'];
    execute: CairnClient['executeCell'];
    interrupt: CairnClient['interruptKernel'];
    restart: CairnClient['restartKernel'];
    variables: CairnClient['kernelVariables'];
  };
  search: CairnClient['search'];
  /** The session as Markdown (format 'md') or as the JSON that sessions.import brings back. */
  export(sessionId: string, format: 'md'): Promise<string>;
  export(sessionId: string, format: 'json'): Promise<SessionExport>;
  /** Drops the open event sockets now; they reconnect and resume where they were (after a network change). */
  reconnect(): void;
  /** Closes the event sockets; iterations still running end with an error. */
  close(): void;
}

/**
 * Connects to a Cairn server; rejects with ApiError (`unauthorized`, `network`, `redirect`, …) if it cannot,
 * and with `bad_request`, before sending anything, for plain http to another machine (see allowInsecureHttp).
 */
export async function connect(options: ConnectOptions): Promise<CairnConnection> {
  checkTransport(options.url, options.allowInsecureHttp === true);
  const backend: Backend = { url: options.url, token: options.token };
  const WebSocketImpl = (options.WebSocket ?? globalThis.WebSocket) as typeof WebSocket | undefined;
  if (!WebSocketImpl) {
    throw new TypeError(
      "This runtime has no WebSocket (Node 20 has none): pass the `ws` package's class as connect({ url, token, WebSocket }).",
    );
  }
  const fetchImpl = options.fetch;
  const api = new CairnClient(backend, fetchImpl ? (...args) => fetchImpl(...args) : undefined);
  const capabilities = await api.capabilities();
  // Each open socket with what to tell its iteration if close() ends it.
  const streams = new Map<EventStream, () => void>();
  const openStream = (onClose: () => void) => {
    const stream = new EventStream(backend, { WebSocketImpl });
    streams.set(stream, onClose);
    return {
      stream,
      release: () => {
        streams.delete(stream);
        stream.close();
      },
    };
  };

  return {
    api,
    capabilities,
    projects: { list: api.listProjects, open: api.openProject },
    sessions: {
      list: api.listSessions,
      create: api.createSession,
      get: api.getSession,
      update: api.updateSession,
      branch: api.branchSession,
      delete: api.deleteSession,
      import: api.importSession,
    },
    turns: {
      async submit(sessionId, prompt, { requestId = newRequestId() } = {}) {
        // Read before submitting: every event of a new turn comes after this position.
        const { last_seq: sinceSeq } = await api.listTurns(sessionId, { limit: 1 });
        const turn = await api.startTurn(sessionId, prompt, requestId);
        return new TurnHandle(turn, { api, openStream, sinceSeq });
      },
      list: api.listTurns,
      get: api.getTurn,
    },
    questions: { list: api.questions, answer: api.answer },
    kernels: {
      list: api.listKernels,
      execute: api.executeCell,
      interrupt: api.interruptKernel,
      restart: api.restartKernel,
      variables: api.kernelVariables,
    },
    search: api.search,
    export: ((sessionId: string, format: 'md' | 'json') =>
      format === 'md'
        ? api.exportMarkdown(sessionId)
        : api.exportJson(sessionId)) as CairnConnection['export'],
    reconnect() {
      for (const stream of streams.keys()) stream.reconnectNow();
    },
    close() {
      for (const [stream, onClose] of [...streams]) {
        stream.close();
        onClose();
      }
      streams.clear();
    },
  };
}
