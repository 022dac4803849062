import type { WebSocket } from 'ws';
import type { EventFeed } from '../application/events/event-feed';
import { CairnError, notFound } from '../errors';
import type { Logger } from '../log/logger';
import {
  type CairnEvent,
  WS_CLOSE_UNAUTHENTICATED,
  WsClientMessage,
  type WsServerMessage,
} from '../protocol';
import { safeEqual } from './request-policy';

export interface WsHubOptions {
  events: EventFeed;
  token: string;
  authTimeoutMs: number;
  logger: Logger;
}

interface Client {
  socket: WebSocket;
  /** session id → last seq sent */
  subscriptions: Map<string, number>;
}

const BACKLOG_PAGE = 2000;

/**
 * Relays journal events to WebSocket clients. A client authenticates with its first message,
 * then subscribes per session from a sequence number: the backlog comes from the journal, then live
 * events, and the per-subscription high-water mark keeps anything from being sent twice.
 */
export class WsHub {
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: WsHubOptions) {
    this.unsubscribe = options.events.subscribe((event) => this.relay(event));
  }

  accept(socket: WebSocket): void {
    let client: Client | null = null;
    const timer = setTimeout(() => {
      if (!client) socket.close(WS_CLOSE_UNAUTHENTICATED, 'authentication required');
    }, this.options.authTimeoutMs);
    socket.on('close', () => {
      clearTimeout(timer);
      if (client) this.clients.delete(client);
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', (raw) => {
      const message = parseMessage(raw.toString());
      if (!client) {
        if (message?.type === 'authenticate' && safeEqual(message.token, this.options.token)) {
          clearTimeout(timer);
          client = { socket, subscriptions: new Map() };
          this.clients.add(client);
          send(socket, { type: 'authenticated' });
        } else {
          socket.close(WS_CLOSE_UNAUTHENTICATED, 'authentication failed');
        }
        return;
      }
      if (!message) {
        send(socket, {
          type: 'error',
          error: new CairnError(
            'bad_request',
            'Unreadable message: send JSON such as {"type":"subscribe","session_id":"…","after_seq":0}.',
          ).toJSON(),
        });
        return;
      }
      if (message.type === 'subscribe') this.subscribe(client, message.session_id, message.after_seq);
      else if (message.type === 'unsubscribe') client.subscriptions.delete(message.session_id);
    });
  }

  private subscribe(client: Client, sessionId: string, afterSeq: number): void {
    if (!this.options.events.sessionExists(sessionId)) {
      send(client.socket, {
        type: 'error',
        session_id: sessionId,
        error: notFound('Session', sessionId).toJSON(),
      });
      return;
    }
    send(client.socket, { type: 'subscribed', session_id: sessionId, after_seq: afterSeq });
    // The journal is synchronous: no event can be appended between reading the backlog and
    // registering the subscription, so nothing falls in between.
    let last = afterSeq;
    for (;;) {
      const page = this.options.events.after(sessionId, last, BACKLOG_PAGE);
      for (const event of page) send(client.socket, { type: 'event', event });
      if (page.length > 0) last = page.at(-1)!.seq;
      if (page.length < BACKLOG_PAGE) break;
    }
    client.subscriptions.set(sessionId, last);
  }

  private relay(event: CairnEvent): void {
    for (const client of this.clients) {
      const last = client.subscriptions.get(event.session_id);
      if (last === undefined || event.seq <= last) continue;
      client.subscriptions.set(event.session_id, event.seq);
      send(client.socket, { type: 'event', event });
    }
  }

  close(): void {
    this.unsubscribe();
    for (const client of this.clients) client.socket.close(1001, 'server stopping');
    this.clients.clear();
  }
}

function parseMessage(text: string): WsClientMessage | null {
  try {
    const result = WsClientMessage.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

function send(socket: WebSocket, message: WsServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
