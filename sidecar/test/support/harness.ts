import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { CairnEvent, Turn, WsServerMessage } from '../../src/protocol';
import { type RunningServer, startServer } from '../../src/server/start-server';
import { type ModelServer, startModelServer } from './model-server';

export const TEST_MODEL = 'cairn-test-model';
export const TEST_KEY = 'sk-ant-test-0123456789abcdef';

export function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cairn-${prefix}-`)));
}

/** The environment a test sidecar runs with: the scripted model server and a key from the environment. */
export function testEnv(model: ModelServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CAIRN_ANTHROPIC_API_KEY: TEST_KEY,
    CAIRN_ANTHROPIC_BASE_URL: model.url,
    CAIRN_MODEL: TEST_MODEL,
    CAIRN_MODEL_MAX_RETRIES: '0',
    CAIRN_TOKEN: undefined,
    ...extra,
  };
}

export interface Harness {
  model: ModelServer;
  server: RunningServer;
  dataDir: string;
  projectDir: string;
  api<T = unknown>(
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  /** Creates a project for projectDir and a session in it. */
  newSession(extra?: Record<string, unknown>): Promise<{ projectId: string; sessionId: string }>;
  startTurn(sessionId: string, prompt: string, requestId?: string): Promise<Turn>;
  waitForTurnEnd(turnId: string): Promise<Turn>;
  events(sessionId: string, after?: number): Promise<CairnEvent[]>;
  waitForEvent(sessionId: string, predicate: (e: CairnEvent) => boolean): Promise<CairnEvent>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export async function startHarness(
  options: { env?: NodeJS.ProcessEnv; dataDir?: string; model?: ModelServer } = {},
): Promise<Harness> {
  const model = options.model ?? (await startModelServer());
  const dataDir = options.dataDir ?? tempDir('data');
  const projectDir = tempDir('project');
  const env = testEnv(model, { CAIRN_TOKEN: 'test-token-0123456789-abcdefghij', ...options.env });
  const launch = () => startServer({ dataDir, host: '127.0.0.1', port: 0, env, staticDir: null });
  let server = await launch();

  const api: Harness['api'] = async (method, route, body, headers = {}) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as never,
      headers: response.headers,
    };
  };

  const harness: Harness = {
    model,
    get server() {
      return server;
    },
    dataDir,
    projectDir,
    api,
    async newSession(extra = {}) {
      const project = await api<{ id: string }>('POST', '/api/projects', { path: projectDir });
      const session = await api<{ id: string }>('POST', '/api/sessions', {
        project_id: project.body.id,
        ...extra,
      });
      return { projectId: project.body.id, sessionId: session.body.id };
    },
    async startTurn(sessionId, prompt, requestId = `req-${Math.random()}`) {
      const res = await api<Turn>('POST', `/api/sessions/${sessionId}/turns`, {
        prompt,
        request_id: requestId,
      });
      if (res.status !== 202)
        throw new Error(`starting a turn answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async waitForTurnEnd(turnId) {
      await server.core.runtime.waitForTurn(turnId);
      return (await api<Turn>('GET', `/api/turns/${turnId}`)).body;
    },
    async events(sessionId, after = 0) {
      return (await api<{ events: CairnEvent[] }>('GET', `/api/sessions/${sessionId}/events?after=${after}`))
        .body.events;
    },
    waitForEvent(sessionId, predicate) {
      return new Promise((resolve) => {
        const existing = server.core.store.events.after(sessionId, 0).find(predicate);
        if (existing) return resolve(existing);
        const off = server.core.store.events.subscribe((event) => {
          if (event.session_id === sessionId && predicate(event)) {
            off();
            resolve(event);
          }
        });
      });
    },
    async restart() {
      await server.stop();
      server = await launch();
    },
    async close() {
      await server.stop();
      if (!options.model) await model.close();
      fs.rmSync(projectDir, { recursive: true, force: true });
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A WebSocket client that records what it receives. */
export async function connectWs(url: string): Promise<{
  socket: WebSocket;
  messages: WsServerMessage[];
  closed: Promise<{ code: number }>;
  next(predicate: (m: WsServerMessage) => boolean): Promise<WsServerMessage>;
  send(message: unknown): void;
}> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`);
  const messages: WsServerMessage[] = [];
  const waiters: { predicate: (m: WsServerMessage) => boolean; resolve: (m: WsServerMessage) => void }[] = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as WsServerMessage;
    messages.push(message);
    for (const w of [...waiters]) {
      if (w.predicate(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  const closed = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    next(predicate) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    send(message) {
      socket.send(JSON.stringify(message));
    },
  };
}
