import { type CairnEvent, type ErrorInfo, WS_CLOSE_UNAUTHENTICATED, WsServerMessage } from '../protocol';
import type { Backend } from './http-client';

/** 'rejected': the server refused the token (close 4401); retrying cannot help, a new token can. */
export type StreamState = 'connecting' | 'open' | 'down' | 'rejected';

/** The event socket of a backend: ws:// for http://, wss:// for https://. */
export function socketUrl(base: string): string {
  return `${base.replace(/\/+$/, '').replace(/^http/, 'ws')}/api/ws`;
}

interface Subscription {
  afterSeq: number;
  onEvent: (event: CairnEvent) => void;
  onError?: (error: ErrorInfo) => void;
}

export interface EventStreamOptions {
  WebSocketImpl?: typeof WebSocket;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * The WebSocket to the sidecar: authenticates with its first message, subscribes per session,
 * reconnects with backoff and resumes each subscription after the last sequence number it
 * delivered, so no event is lost or shown twice.
 */
export class EventStream {
  private socket: WebSocket | null = null;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly stateListeners = new Set<(state: StreamState) => void>();
  private state: StreamState = 'connecting';
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly WebSocketImpl: typeof WebSocket;

  constructor(
    private readonly backend: Backend,
    private readonly options: EventStreamOptions = {},
  ) {
    this.WebSocketImpl = options.WebSocketImpl ?? WebSocket;
    this.connect();
  }

  /**
   * Receives every event of the session with seq > afterSeq, then live ones. `onError` hears the server
   * refuse the subscription (not_found: the session was deleted); it then ends, with no more resubscribing.
   */
  subscribe(
    sessionId: string,
    afterSeq: number,
    onEvent: (event: CairnEvent) => void,
    onError?: (error: ErrorInfo) => void,
  ): () => void {
    const subscription: Subscription = { afterSeq, onEvent, onError };
    this.subscriptions.set(sessionId, subscription);
    this.send({ type: 'subscribe', session_id: sessionId, after_seq: afterSeq });
    return () => {
      if (this.subscriptions.get(sessionId) !== subscription) return;
      this.subscriptions.delete(sessionId);
      this.send({ type: 'unsubscribe', session_id: sessionId });
    };
  }

  onState(listener: (state: StreamState) => void): () => void {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => this.stateListeners.delete(listener);
  }

  getState(): StreamState {
    return this.state;
  }

  /**
   * "Reconnect now": drops an open socket as a network failure would (it reconnects at once), or ends
   * the wait before the next attempt. An attempt under way is left to finish.
   */
  reconnectNow(): void {
    if (this.closed) return;
    if (this.socket) {
      if (this.socket.readyState !== this.WebSocketImpl.CONNECTING) this.socket.close();
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.connect();
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
  }

  private connect(): void {
    if (this.closed) return;
    this.setState(this.attempt === 0 ? 'connecting' : 'down');
    const socket = new this.WebSocketImpl(socketUrl(this.backend.url));
    this.socket = socket;
    let authenticated = false;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'authenticate', token: this.backend.token }));
    socket.onmessage = (message) => {
      const parsed = WsServerMessage.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) return;
      const data = parsed.data;
      if (data.type === 'authenticated') {
        authenticated = true;
        this.attempt = 0;
        this.setState('open');
        for (const [sessionId, sub] of this.subscriptions) {
          socket.send(JSON.stringify({ type: 'subscribe', session_id: sessionId, after_seq: sub.afterSeq }));
        }
      } else if (data.type === 'event') {
        const sub = this.subscriptions.get(data.event.session_id);
        if (!sub || data.event.seq <= sub.afterSeq) return;
        sub.afterSeq = data.event.seq;
        sub.onEvent(data.event);
      } else if (data.type === 'error' && data.session_id !== undefined) {
        const sub = this.subscriptions.get(data.session_id);
        if (!sub) return;
        this.subscriptions.delete(data.session_id);
        sub.onError?.(data.error);
      }
    };
    // A failed connection is followed by a close event, which decides what happens next.
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code === WS_CLOSE_UNAUTHENTICATED) {
        this.setState('rejected');
        return;
      }
      this.attempt += 1;
      this.setState('down');
      const base = this.options.initialDelayMs ?? 250;
      const max = this.options.maxDelayMs ?? 10_000;
      const delay = Math.min(max, base * 2 ** Math.min(this.attempt - 1, 10)) * (0.75 + Math.random() * 0.5);
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.connect();
        },
        authenticated ? 0 : delay,
      );
    };
  }

  private send(message: unknown): void {
    if (this.socket && this.socket.readyState === this.WebSocketImpl.OPEN && this.state === 'open') {
      this.socket.send(JSON.stringify(message));
    }
  }

  private setState(state: StreamState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }
}
