import { randomUUID } from 'node:crypto';
import path from 'node:path';
import WebSocket from 'ws';
import { titleFromPrompt } from '../application/sessions/session-title';
import { isLoopbackHost } from '../config/loopback';
import { CairnError } from '../errors';
import {
  type AnswerQuestionRequest,
  type CairnEvent,
  type Capabilities,
  ErrorResponse,
  type Project,
  type Session,
  type SessionMode,
  type Turn,
  type TurnStatus,
  WsServerMessage,
} from '../protocol';
import { Deferred } from './deferred';
import { TERMINAL_STATUS, type TurnDriver } from './turn-driver';
import { UsageError } from './usage';

export interface RemoteRunOptions {
  serverUrl: string;
  token: string;
  workspace: string;
  prompt: string;
  sessionId: string | null;
  /** --mode: the new session's mode, or the given session switched to it; null leaves it as it is. */
  mode: SessionMode | null;
  /** A line for the person at the terminal (stderr), e.g. that the workspace is not used. */
  notice: (text: string) => void;
}

/** Submits the turn to a running `cairn serve` and follows it over the WebSocket. */
export class RemoteTurnDriver implements TurnDriver {
  private socket: WebSocket | null = null;
  private turnId: string | null = null;
  private sessionId: string | null = null;
  private readonly done = new Deferred<TurnStatus>();
  private readonly base: string;

  constructor(private readonly options: RemoteRunOptions) {
    this.base = options.serverUrl.replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(this.base);
    } catch {
      throw new UsageError(`--server must be an http(s) URL (got "${options.serverUrl}").`);
    }
    // The token travels in every request: only over TLS, unless it never leaves this machine.
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new UsageError(
        `Refusing to send the token over plain http to ${url.host}: use an https:// address ` +
          '(plain http is only for a server on this machine, e.g. http://127.0.0.1:8765).',
      );
    }
  }

  async start(onEvent: (event: CairnEvent) => void): Promise<{ sessionId: string; turnId: string }> {
    let session = await this.openSession();
    const { mode } = this.options;
    if (mode !== null && session.mode !== mode) {
      session = await this.request<Session>('PATCH', `/api/sessions/${encodeURIComponent(session.id)}`, {
        mode,
      });
    }
    // Only what happens from now on matters: start after the session's current journal position.
    const { last_seq: afterSeq } = await this.request<{ last_seq: number }>(
      'GET',
      `/api/sessions/${session.id}/turns?limit=1`,
    );
    this.sessionId = session.id;
    const buffered: CairnEvent[] = [];
    await this.openSocket(session.id, afterSeq, (event) => {
      if (this.turnId === null) buffered.push(event);
      else if (event.turn_id === this.turnId) this.deliver(event, onEvent);
    });
    const turn = await this.request<Turn>('POST', `/api/sessions/${session.id}/turns`, {
      prompt: this.options.prompt,
      request_id: randomUUID(),
    });
    this.turnId = turn.id;
    for (const event of buffered) if (event.turn_id === turn.id) this.deliver(event, onEvent);
    return { sessionId: session.id, turnId: turn.id };
  }

  /** The session to run in: the given one, or a new one in the workspace's project (none conversation-only). */
  private async openSession(): Promise<Session> {
    const { workspace, sessionId, prompt } = this.options;
    const title = titleFromPrompt(prompt);
    const modeField = this.options.mode === null ? {} : { mode: this.options.mode };
    const capabilities = await this.request<Capabilities>('GET', '/api/capabilities');
    if (!capabilities.projects) {
      // A conversation-only server has no projects: the turn runs as a plain conversation there.
      this.options.notice(
        `The server runs conversation-only: ${workspace} is not opened; the turn runs as a plain conversation, without shell, file, Python or MCP tools.`,
      );
      return sessionId !== null
        ? this.getSession(sessionId)
        : this.request<Session>('POST', '/api/sessions', { title, ...modeField });
    }
    const project = await this.request<Project>('POST', '/api/projects', { path: path.resolve(workspace) });
    if (sessionId === null)
      return this.request<Session>('POST', '/api/sessions', { project_id: project.id, title, ...modeField });
    const session = await this.getSession(sessionId);
    if (session.project_id !== project.id) {
      throw new CairnError(
        'bad_request',
        `Session ${session.id} belongs to another project, not ${project.path}.`,
      );
    }
    return session;
  }

  private getSession(id: string): Promise<Session> {
    return this.request<Session>('GET', `/api/sessions/${encodeURIComponent(id)}`);
  }

  private deliver(event: CairnEvent, onEvent: (event: CairnEvent) => void): void {
    onEvent(event);
    const status = TERMINAL_STATUS[event.type];
    if (status) this.done.resolve(status);
  }

  private openSocket(
    sessionId: string,
    afterSeq: number,
    onEvent: (event: CairnEvent) => void,
  ): Promise<void> {
    const url = `${this.base.replace(/^http/, 'ws')}/api/ws`;
    return new Promise<void>((resolve, reject) => {
      // No redirects: the token goes in the first message, and only to the address given.
      const socket = new WebSocket(url, { followRedirects: false });
      this.socket = socket;
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'authenticate', token: this.options.token })),
      );
      socket.on('message', (raw) => {
        const parsed = WsServerMessage.safeParse(JSON.parse(raw.toString()));
        if (!parsed.success) return;
        const message = parsed.data;
        if (message.type === 'authenticated') {
          socket.send(JSON.stringify({ type: 'subscribe', session_id: sessionId, after_seq: afterSeq }));
        } else if (message.type === 'subscribed') {
          resolve();
        } else if (message.type === 'event') {
          onEvent(message.event);
        } else if (message.type === 'error') {
          reject(new CairnError('bad_request', message.error.message));
        }
      });
      socket.on('close', (code) => {
        const error = new CairnError(
          code === 4401 ? 'unauthorized' : 'internal',
          code === 4401
            ? 'The server rejected the token: set CAIRN_TOKEN to the token `cairn serve` uses.'
            : `The connection to ${this.base} closed (code ${code}).`,
        );
        reject(error);
        this.done.reject(error);
      });
      socket.on('error', (error) =>
        reject(new CairnError('internal', `Cannot reach ${this.base}: ${error.message}`)),
      );
    });
  }

  finished(): Promise<TurnStatus> {
    return this.done.promise;
  }

  async answer(questionId: string, answer: AnswerQuestionRequest): Promise<void> {
    await this.request('POST', `/api/questions/${encodeURIComponent(questionId)}/answer`, answer);
  }

  async replyInput(kernel: string, requestId: string, value: string): Promise<void> {
    if (!this.sessionId) return;
    await this.request(
      'POST',
      `/api/sessions/${encodeURIComponent(this.sessionId)}/kernels/${encodeURIComponent(kernel)}/input`,
      { request_id: requestId, value },
    );
  }

  async cancel(): Promise<void> {
    if (this.turnId) await this.request('POST', `/api/turns/${this.turnId}/cancel`);
  }

  async close(): Promise<void> {
    this.socket?.removeAllListeners('close');
    this.socket?.close();
  }

  private async request<T>(method: string, route: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // Never follow: the next request would carry the token to wherever the redirect points.
        redirect: 'manual',
      });
    } catch (error) {
      throw new CairnError(
        'internal',
        `Cannot reach the Cairn server at ${this.base}: ${fetchFailure(error)}`,
      );
    }
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel();
      const to = redirectTarget(response.headers.get('location'), this.base);
      throw new CairnError(
        'bad_request',
        `${this.base} answered ${method} ${route} with a redirect${to ? ` to ${to}` : ''}. Cairn does not ` +
          'follow redirects, so the token goes only to the address given: use the final address as --server.',
      );
    }
    const text = await response.text();
    const json = text ? (JSON.parse(text) as unknown) : null;
    if (!response.ok) {
      const parsed = ErrorResponse.safeParse(json);
      const message = parsed.success ? parsed.data.error.message : `HTTP ${response.status}`;
      throw new CairnError('bad_request', `The server refused ${method} ${route}: ${message}`);
    }
    return json as T;
  }
}

/** fetch's own message is just "fetch failed"; the cause says why (refused, a certificate, a reset). */
function fetchFailure(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } }).cause;
  const detail = typeof cause?.message === 'string' ? cause.message : null;
  const message = error instanceof Error ? error.message : String(error);
  return detail ? `${message} (${detail})` : message;
}

/** Where a redirect points, as scheme://host only (its path could hold anything). */
function redirectTarget(location: string | null, base: string): string | null {
  if (!location) return null;
  try {
    return new URL(location, base).origin;
  } catch {
    return null;
  }
}
