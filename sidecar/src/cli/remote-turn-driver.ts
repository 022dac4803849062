import { randomUUID } from 'node:crypto';
import path from 'node:path';
import WebSocket from 'ws';
import { titleFromPrompt } from '../agent/session-title';
import { CairnError } from '../errors';
import {
  type CairnEvent,
  ErrorResponse,
  type Project,
  type Session,
  type Turn,
  type TurnStatus,
  WsServerMessage,
} from '../protocol';
import { Deferred } from './deferred';
import { TERMINAL_STATUS, type TurnDriver } from './turn-driver';

export interface RemoteRunOptions {
  serverUrl: string;
  token: string;
  workspace: string;
  prompt: string;
  sessionId: string | null;
}

/** Submits the turn to a running `cairn serve` and follows it over the WebSocket. */
export class RemoteTurnDriver implements TurnDriver {
  private socket: WebSocket | null = null;
  private turnId: string | null = null;
  private readonly done = new Deferred<TurnStatus>();
  private readonly base: string;

  constructor(private readonly options: RemoteRunOptions) {
    this.base = options.serverUrl.replace(/\/+$/, '');
  }

  async start(onEvent: (event: CairnEvent) => void): Promise<{ sessionId: string; turnId: string }> {
    const project = await this.request<Project>('POST', '/api/projects', {
      path: path.resolve(this.options.workspace),
    });
    const session =
      this.options.sessionId !== null
        ? await this.request<Session>('GET', `/api/sessions/${encodeURIComponent(this.options.sessionId)}`)
        : await this.request<Session>('POST', '/api/sessions', {
            project_id: project.id,
            title: titleFromPrompt(this.options.prompt),
          });
    if (session.project_id !== project.id) {
      throw new CairnError(
        'bad_request',
        `Session ${session.id} belongs to another project, not ${project.path}.`,
      );
    }
    // Only what happens from now on matters: start after the session's current journal position.
    const { last_seq: afterSeq } = await this.request<{ last_seq: number }>(
      'GET',
      `/api/sessions/${session.id}/turns?limit=1`,
    );
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
      const socket = new WebSocket(url);
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

  async answer(questionId: string, answer: string): Promise<void> {
    await this.request('POST', `/api/questions/${encodeURIComponent(questionId)}/answer`, { answer });
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
        redirect: 'error',
      });
    } catch (error) {
      throw new CairnError(
        'internal',
        `Cannot reach the Cairn server at ${this.base}: ${(error as Error).message}`,
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
