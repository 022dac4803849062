import {
  type AnswerQuestionRequest,
  type CairnEvent,
  type Question,
  TERMINAL_TURN_EVENTS,
  type Turn,
} from '../protocol';
import { AsyncQueue } from './async-queue';
import type { EventStream, StreamState } from './event-stream';
import { ApiError, type CairnClient } from './http-client';

export interface TurnEventsOptions {
  /** Stops the iteration: it throws ApiError `cancelled` (the turn itself goes on; see cancel()). */
  signal?: AbortSignal;
  /** The event socket's state as it changes ('down' while it reconnects). */
  onState?: (state: StreamState) => void;
}

/** What a handle needs from its connection: the API, and a fresh event socket to follow the turn on. */
export interface TurnHandleDeps {
  api: CairnClient;
  /** `onClose` is called if the connection is closed while the socket is in use. */
  openStream: (onClose: () => void) => { stream: EventStream; release: () => void };
  /** The session's journal position before the turn was submitted: its events all come after it. */
  sinceSeq: number;
}

const TERMINAL = new Set<string>(TERMINAL_TURN_EVENTS);

/** A submitted turn: its events in order to its end, surviving dropped sockets; its questions; cancel. */
export class TurnHandle {
  constructor(
    readonly turn: Turn,
    private readonly deps: TurnHandleDeps,
  ) {}

  get id(): string {
    return this.turn.id;
  }

  /**
   * The turn's events from its first, in order, ending after its terminal event (turn.completed, failed,
   * cancelled or interrupted). Each iteration has its own socket; after a drop it resumes after the last
   * event delivered, so none is lost or repeated.
   */
  async *events(options: TurnEventsOptions = {}): AsyncGenerator<CairnEvent, void, undefined> {
    const { api, openStream } = this.deps;
    const { id, session_id: sessionId } = this.turn;
    // What the journal already holds (all of it for a turn this request_id had started before).
    const known = await api.turnEvents(sessionId, id);
    for (const event of known) {
      yield event;
      if (TERMINAL.has(event.type)) return;
    }
    const queue = new AsyncQueue<CairnEvent>();
    const { stream, release } = openStream(() =>
      queue.fail(new ApiError(0, 'cancelled', `The connection was closed while following turn ${id}.`)),
    );
    const onAbort = () => queue.fail(new ApiError(0, 'cancelled', `Following turn ${id} was stopped.`));
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    const offState = stream.onState((state) => {
      options.onState?.(state);
      if (state === 'rejected') {
        queue.fail(
          new ApiError(
            401,
            'unauthorized',
            'The server rejected the token on the event socket: use its token.',
          ),
        );
      }
    });
    try {
      stream.subscribe(
        sessionId,
        known.at(-1)?.seq ?? this.deps.sinceSeq,
        (event) => {
          if (event.turn_id === id) queue.push(event);
        },
        // The session is gone (deleted while the socket was down): no terminal event will ever come.
        (error) =>
          queue.fail(
            new ApiError(
              error.code === 'not_found' ? 404 : 0,
              error.code,
              `Cannot follow turn ${id}: ${error.message}`,
              error.details,
            ),
          ),
      );
      for (;;) {
        const event = await queue.next();
        yield event;
        if (TERMINAL.has(event.type)) return;
      }
    } finally {
      offState();
      options.signal?.removeEventListener('abort', onAbort);
      release();
    }
  }

  /** Follows the turn to its end and reads it back as stored (status, usage, cost, code mode's answer). */
  async result(options: TurnEventsOptions = {}): Promise<Turn> {
    for await (const _ of this.events(options)) {
      // Only the end matters here.
    }
    return this.deps.api.getTurn(this.turn.id);
  }

  /** Cancels the turn; resolves once it has stopped. */
  cancel(): Promise<Turn> {
    return this.deps.api.cancelTurn(this.turn.id);
  }

  /** Answers one of the turn's questions: a plain answer, or an approval's with `remember`/`pattern`. */
  answer(questionId: string, answer: string | AnswerQuestionRequest): Promise<Question> {
    return this.deps.api.answer(questionId, typeof answer === 'string' ? { answer } : answer);
  }
}
