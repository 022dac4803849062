import path from 'node:path';
import WebSocket from 'ws';
import { titleFromPrompt } from '../application/sessions/session-title';
import {
  ApiError,
  type CairnConnection,
  connect,
  type StreamState,
  socketUrl,
  type TurnHandle,
} from '../client';
import { CairnError } from '../errors';
import type { AnswerQuestionRequest, CairnEvent, Session, SessionMode, TurnStatus } from '../protocol';
import { Deferred } from './deferred';
import { RemoteFetch } from './remote-fetch';
import { cairnServerUrl } from './server-url';
import { TERMINAL_STATUS, type TurnDriver } from './turn-driver';

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

/**
 * Submits the turn to a running `cairn serve` through Cairn's client and follows its events; a dropped
 * socket resumes where it was while the server still answers.
 */
export class RemoteTurnDriver implements TurnDriver {
  private connection: CairnConnection | null = null;
  private turn: TurnHandle | null = null;
  private sessionId: string | null = null;
  private readonly done = new Deferred<TurnStatus>();
  private readonly following = new AbortController();
  /** Why following stopped, when the server stopped answering. */
  private lost: CairnError | null = null;
  private socketOpened = false;
  private readonly base: string;
  private readonly remoteFetch: RemoteFetch;

  constructor(private readonly options: RemoteRunOptions) {
    this.base = cairnServerUrl(options.serverUrl);
    this.remoteFetch = new RemoteFetch(this.base);
  }

  async start(onEvent: (event: CairnEvent) => void): Promise<{ sessionId: string; turnId: string }> {
    const connection = await this.call(() =>
      connect({ url: this.base, token: this.options.token, WebSocket, fetch: this.remoteFetch.fetch }),
    );
    this.connection = connection;
    let session = await this.openSession(connection);
    const { mode } = this.options;
    if (mode !== null && session.mode !== mode) {
      session = await this.call(() => connection.sessions.update(session.id, { mode }));
    }
    this.sessionId = session.id;
    const turn = await this.call(() => connection.turns.submit(session.id, this.options.prompt));
    this.turn = turn;
    void this.follow(turn, onEvent);
    return { sessionId: session.id, turnId: turn.id };
  }

  /** The session to run in: the given one, or a new one in the workspace's project (none conversation-only). */
  private async openSession(connection: CairnConnection): Promise<Session> {
    const { workspace, sessionId, prompt } = this.options;
    const title = titleFromPrompt(prompt);
    const modeField = this.options.mode === null ? {} : { mode: this.options.mode };
    if (!connection.capabilities.projects) {
      // A conversation-only server has no projects: the turn runs as a plain conversation there.
      this.options.notice(
        `The server runs conversation-only: ${workspace} is not opened; the turn runs as a plain conversation, without shell, file, Python or MCP tools.`,
      );
      return this.call(() =>
        sessionId !== null
          ? connection.sessions.get(sessionId)
          : connection.sessions.create({ title, ...modeField }),
      );
    }
    const project = await this.call(() => connection.projects.open(path.resolve(workspace)));
    if (sessionId === null)
      return this.call(() => connection.sessions.create({ project_id: project.id, title, ...modeField }));
    const session = await this.call(() => connection.sessions.get(sessionId));
    if (session.project_id !== project.id) {
      throw new CairnError(
        'bad_request',
        `Session ${session.id} belongs to another project, not ${project.path}.`,
      );
    }
    return session;
  }

  /** Hands the turn's events on until its terminal one, or fails `finished` with why it could not. */
  private async follow(turn: TurnHandle, onEvent: (event: CairnEvent) => void): Promise<void> {
    try {
      const events = turn.events({ signal: this.following.signal, onState: (state) => this.watch(state) });
      for await (const event of events) {
        onEvent(event);
        const status = TERMINAL_STATUS[event.type];
        if (status) this.done.resolve(status);
      }
    } catch (error) {
      this.done.reject(this.lost ?? this.followFailure(turn, error));
    }
  }

  /** A session deleted mid-turn (elsewhere, or absent from a restarted server) ends the run, saying so. */
  private followFailure(turn: TurnHandle, error: unknown): Error {
    if (!(error instanceof ApiError) || error.code !== 'not_found') return this.describe(error);
    return new CairnError(
      'not_found',
      `Session ${turn.turn.session_id} no longer exists on ${this.base} (it was deleted, or the server came ` +
        `back without it) while this run followed turn ${turn.id}: the turn will not finish.`,
    );
  }

  /**
   * A dropped socket resumes by itself; a server that no longer answers at all ends the run, and so does
   * a socket that never opened (a proxy that does not pass WebSockets would otherwise keep it retrying).
   */
  private watch(state: StreamState): void {
    if (state === 'open') this.socketOpened = true;
    if (state !== 'down' || !this.connection) return;
    if (!this.socketOpened) {
      this.lost = new CairnError(
        'internal',
        `Cannot open the event WebSocket at ${socketUrl(this.base)}: the server answers HTTP but the socket ` +
          'did not connect (a proxy in front must pass WebSocket upgrades).',
      );
      this.following.abort();
      return;
    }
    this.connection.api.health().catch((error: unknown) => {
      this.lost = new CairnError(
        'internal',
        `The connection to ${this.base} closed and the server does not answer: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.following.abort();
    });
  }

  finished(): Promise<TurnStatus> {
    return this.done.promise;
  }

  async answer(questionId: string, answer: AnswerQuestionRequest): Promise<void> {
    const { connection } = this;
    if (connection) await this.call(() => connection.questions.answer(questionId, answer));
  }

  async replyInput(kernel: string, requestId: string, value: string): Promise<void> {
    const { connection, sessionId } = this;
    if (!connection || !sessionId) return;
    await this.call(() => connection.api.replyInput(sessionId, kernel, requestId, value));
  }

  async cancel(): Promise<void> {
    const { turn } = this;
    if (turn) await this.call(() => turn.cancel());
  }

  async close(): Promise<void> {
    this.connection?.close();
  }

  /** Runs a client call, turning its ApiError into the command line's message. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.describe(error);
    }
  }

  private describe(error: unknown): Error {
    if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
    const request = this.remoteFetch.last ?? 'the request';
    switch (error.code) {
      case 'redirect': {
        const to = this.remoteFetch.redirectedTo;
        return new CairnError(
          'bad_request',
          `${this.base} answered ${request} with a redirect${to ? ` to ${to}` : ''}. Cairn does not ` +
            'follow redirects, so the token goes only to the address given: use the final address as --server.',
        );
      }
      case 'network':
        return new CairnError('internal', error.message);
      case 'unauthorized':
        return new CairnError(
          'unauthorized',
          'The server rejected the token: set CAIRN_TOKEN to the token `cairn serve` uses.',
        );
      default:
        return new CairnError('bad_request', `The server refused ${request}: ${error.message}`);
    }
  }
}
