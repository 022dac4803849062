// connect()'s turns against a real sidecar, in process: a turn's events survive a dropped socket (each
// once, in order), close() ends an iteration, a session deleted while the socket was down ends it with
// not_found, and a runtime without WebSocket is told what to pass.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import {
  ApiError,
  type CairnConnection,
  connect,
  type StreamState,
  type WebSocketConstructor,
} from '../../src/client';
import type { CairnEvent } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { heldReply } from '../support/held-reply';

/**
 * `ws` sockets whose authentication waits for `gate()` when it returns a promise: a socket made while it
 * does stays unauthenticated, so nothing reaches it until the gate opens.
 */
function gatedWebSocket(gate: () => Promise<void> | null): WebSocketConstructor {
  const handler = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onopen')!;
  // A plain function: `new` on it returns the socket it made.
  function gatedSocket(url: string) {
    const socket = new WebSocket(url);
    const wait = gate();
    if (wait) {
      Object.defineProperty(socket, 'onopen', {
        get: () => handler.get!.call(socket),
        set: (fn: (event: unknown) => void) =>
          handler.set!.call(socket, (event: unknown) => void wait.then(() => fn(event))),
      });
    }
    return socket;
  }
  return Object.assign(gatedSocket, { CONNECTING: WebSocket.CONNECTING, OPEN: WebSocket.OPEN }) as never;
}

let h: Harness;
let sessionId: string;
const open: CairnConnection[] = [];
beforeAll(async () => {
  h = await startHarness();
  ({ sessionId } = await h.newSession());
});
afterAll(async () => {
  for (const connection of open) connection.close();
  await h?.close();
});

async function connectTo(WebSocketImpl: WebSocketConstructor = WebSocket): Promise<CairnConnection> {
  const connection = await connect({ url: h.server.url, token: h.server.token, WebSocket: WebSocketImpl });
  open.push(connection);
  return connection;
}

describe('TurnHandle.events', () => {
  it('resumes after a dropped socket: every event of the turn once, in order, to its end', async () => {
    const release = heldReply(h.model, 'w');
    let gate: Promise<void> | null = null;
    const cairn = await connectTo(gatedWebSocket(() => gate));
    const turn = await cairn.turns.submit(sessionId, 'count');
    const ended = h.waitForTurnEnd(turn.id);
    const states: StreamState[] = [];
    let dropped = false;
    const onState = (state: StreamState) => {
      states.push(state);
      if (state !== 'open' || dropped) return;
      dropped = true;
      // Subscribed and waiting for the model: drop the socket, hold the next one until the turn has ended,
      // then let the model answer. Every later event is journaled while no socket can deliver it.
      setTimeout(() => {
        gate = ended.then(() => undefined);
        cairn.reconnect();
        release();
      });
    };
    const seen: CairnEvent[] = [];
    for await (const event of turn.events({ onState })) seen.push(event);

    const journal = (await h.events(sessionId)).filter((e) => e.turn_id === turn.id);
    expect(seen.map((e) => e.seq)).toEqual(journal.map((e) => e.seq));
    expect(seen).toEqual(journal);
    expect(seen.at(-1)?.type).toBe('turn.completed');
    expect(seen.filter((e) => e.type === 'message.delta').length).toBeGreaterThan(1);
    expect(states).toEqual(['connecting', 'open', 'down', 'open']);
  });

  it('ends with ApiError cancelled when the connection is closed mid-turn', async () => {
    const release = heldReply(h.model, 'x');
    const cairn = await connectTo();
    const turn = await cairn.turns.submit(sessionId, 'wait');
    const seen: CairnEvent[] = [];
    const following = (async () => {
      for await (const event of turn.events({ onState: (s) => s === 'open' && cairn.close() }))
        seen.push(event);
    })();
    const error = await following.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('cancelled');
    expect(seen.at(-1)?.type).not.toBe('turn.completed');
    release();
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
  });

  it('ends with ApiError not_found when the session is deleted while the socket is down', async () => {
    // A reply that stays open: the turn waits mid-answer until it is cancelled.
    h.model.enqueue({ content: [{ type: 'text', text: 'Thinking…' }], hang: true });
    const { sessionId: doomed } = await h.newSession();
    const asked = h.model.waitForRequests(h.model.requests.length + 1);
    let gate: Promise<void> | null = null;
    const cairn = await connectTo(gatedWebSocket(() => gate));
    const turn = await cairn.turns.submit(doomed, 'wait');
    let dropped = false;
    const onState = (state: StreamState) => {
      if (state !== 'open' || dropped) return;
      dropped = true;
      // Subscribed, and the turn is in its model request: drop the socket and hold the next one until the
      // session is gone, so its resubscribe is what learns of it (a live socket would hear the turn's
      // cancellation first).
      void asked.then(() => {
        gate = cairn.sessions.delete(doomed);
        cairn.reconnect();
      });
    };
    const seen: CairnEvent[] = [];
    const error = await (async () => {
      for await (const event of turn.events({ onState })) seen.push(event);
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect((error as ApiError).message).toBe(
      `Cannot follow turn ${turn.id}: Session ${doomed} does not exist.`,
    );
    expect(seen.some((e) => e.type === 'turn.cancelled')).toBe(false);
    await expect(turn.result()).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('tells a runtime without WebSocket to pass the ws package', async () => {
    vi.stubGlobal('WebSocket', undefined);
    try {
      await expect(connect({ url: h.server.url, token: h.server.token })).rejects.toThrow(
        "pass the `ws` package's class as connect({ url, token, WebSocket })",
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
