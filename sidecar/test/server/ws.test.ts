import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CairnEvent, WsServerMessage } from '../../src/protocol';
import { connectWs, type Harness, startHarness } from '../support/harness';
import type { ScriptedBlock, ScriptedReply } from '../support/model-server';

type WsClient = Awaited<ReturnType<typeof connectWs>>;

/** Many text blocks: the model server streams each in several deltas, so a reply makes many events. */
function manyTextBlocks(count: number, tag: string): ScriptedBlock[] {
  return Array.from({ length: count }, (_, i) => ({
    type: 'text' as const,
    text: `${tag} paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}\n`,
  }));
}

/** A reply the model server holds back until the test opens the gate. */
function gated(reply: ScriptedReply): { reply: ScriptedReply; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    reply: {
      kind: 'handler',
      handle: async () => {
        await gate;
        return reply;
      },
    },
    open,
  };
}

function eventsOf(ws: WsClient, sessionId?: string): CairnEvent[] {
  return ws.messages
    .filter((m): m is Extract<WsServerMessage, { type: 'event' }> => m.type === 'event')
    .map((m) => m.event)
    .filter((e) => sessionId === undefined || e.session_id === sessionId);
}

async function authenticated(h: Harness): Promise<WsClient> {
  const ws = await connectWs(h.server.url);
  ws.send({ type: 'authenticate', token: h.server.token });
  await ws.next((m) => m.type === 'authenticated');
  return ws;
}

async function subscribe(ws: WsClient, sessionId: string, afterSeq: number): Promise<void> {
  const start = ws.messages.length;
  ws.send({ type: 'subscribe', session_id: sessionId, after_seq: afterSeq });
  const reply = await ws.next(
    (m) =>
      ws.messages.indexOf(m) >= start &&
      ((m.type === 'subscribed' && m.session_id === sessionId) || m.type === 'error'),
  );
  expect(reply).toEqual({ type: 'subscribed', session_id: sessionId, after_seq: afterSeq });
}

const eventWith = (sessionId: string, predicate: (e: CairnEvent) => boolean) => (m: WsServerMessage) =>
  m.type === 'event' && m.event.session_id === sessionId && predicate(m.event);

/**
 * A round trip on the socket: the hub handles a client's messages in order and writes to a socket in order,
 * so once this answer arrives, everything sent before it (and every earlier message handled) is through.
 */
async function barrier(ws: WsClient): Promise<void> {
  const errors = () => ws.messages.filter((m) => m.type === 'error').length;
  const before = errors();
  ws.send({ type: 'subscribe', session_id: 'ses_barrier_does_not_exist', after_seq: 0 });
  await ws.next(() => errors() > before);
}

async function closeWs(ws: WsClient): Promise<void> {
  if (ws.socket.readyState !== WebSocket.CLOSED) ws.socket.close();
  await ws.closed;
}

describe('WebSocket event relay', () => {
  let h: Harness;
  const sockets: WsClient[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map(closeWs));
    await h?.close();
  });

  const open = async () => {
    const ws = await authenticated(h);
    sockets.push(ws);
    return ws;
  };

  it('sends the backlog from after_seq 0 in seq order, then live events', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    const second = gated({ content: manyTextBlocks(12, 'live'), delayMs: 1 });
    h.model.enqueue(
      {
        content: [
          ...manyTextBlocks(6, 'backlog'),
          { type: 'tool_use', name: 'Bash', input: { command: 'echo step one' } },
        ],
        delayMs: 1,
      },
      second.reply,
    );
    const turn = await h.startTurn(sessionId, 'work in two steps');
    // The turn now waits on the second model reply: the journal holds a backlog and stays still.
    await h.model.waitForRequests(2);
    const backlog = await h.events(sessionId);
    expect(backlog.some((e) => e.type === 'tool.finished')).toBe(true);
    expect(backlog.filter((e) => e.type === 'message.delta').length).toBeGreaterThan(10);

    const ws = await open();
    await subscribe(ws, sessionId, 0);
    await ws.next(eventWith(sessionId, (e) => e.seq === backlog.at(-1)!.seq));
    expect(eventsOf(ws)).toEqual(backlog);

    second.open();
    await ws.next(eventWith(sessionId, (e) => e.type === 'turn.completed'));
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const journal = await h.events(sessionId);
    const received = eventsOf(ws);
    expect(received).toEqual(journal);
    expect(received.map((e) => e.seq)).toEqual(journal.map((_, i) => i + 1));
    const live = received.slice(backlog.length);
    expect(live.filter((e) => e.type === 'message.delta').length).toBeGreaterThan(10);
  });

  it('sends only events after after_seq, then live ones', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    h.model.enqueue({ content: manyTextBlocks(3, 'first') });
    await h.waitForTurnEnd((await h.startTurn(sessionId, 'first')).id);
    const journal = await h.events(sessionId);
    const n = 4;
    expect(journal.length).toBeGreaterThan(n + 2);

    const ws = await open();
    await subscribe(ws, sessionId, n);
    await ws.next(eventWith(sessionId, (e) => e.seq === journal.at(-1)!.seq));
    expect(eventsOf(ws)).toEqual(journal.slice(n));

    // Past the end of the journal: nothing until something new happens.
    const late = await open();
    await subscribe(late, sessionId, journal.length + 100);

    h.model.enqueue({ content: manyTextBlocks(3, 'second') });
    const turn = await h.startTurn(sessionId, 'second');
    await ws.next(eventWith(sessionId, (e) => e.type === 'turn.completed' && e.turn_id === turn.id));
    const after = await h.events(sessionId);
    expect(eventsOf(ws)).toEqual(after.slice(n));
    expect(eventsOf(ws).map((e) => e.seq)).toEqual(after.slice(n).map((_, i) => n + i + 1));

    // Whatever the hub relayed to `late` went out before its answer to this later message.
    await barrier(late);
    expect(eventsOf(late)).toEqual([]);
  });

  it('loses and repeats nothing when a client reconnects mid-turn from the last seq it saw', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    const tail = gated({ content: manyTextBlocks(15, 'after reconnect'), delayMs: 1 });
    h.model.enqueue(
      {
        content: [
          ...manyTextBlocks(20, 'before reconnect'),
          { type: 'tool_use', name: 'Bash', input: { command: 'echo in between' } },
        ],
        delayMs: 2,
      },
      tail.reply,
    );

    const first = await open();
    await subscribe(first, sessionId, 0);
    const turn = await h.startTurn(sessionId, 'stream a lot');
    // Drop the connection while the first reply is still streaming.
    await first.next(eventWith(sessionId, (e) => e.type === 'message.delta' && e.seq >= 10));
    await closeWs(first);
    const seen = eventsOf(first, sessionId);
    const lastSeen = seen.at(-1)!.seq;
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));

    // Events keep coming while no one listens; the turn then waits on the gated reply.
    await h.model.waitForRequests(2);
    const missed = (await h.events(sessionId, lastSeen)).length;
    expect(missed).toBeGreaterThan(0);

    const second = await open();
    await subscribe(second, sessionId, lastSeen);
    tail.open();
    await second.next(eventWith(sessionId, (e) => e.type === 'turn.completed'));
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');

    const resumed = eventsOf(second, sessionId);
    expect(resumed[0]?.seq).toBe(lastSeen + 1);
    expect(resumed.length).toBeGreaterThan(missed);
    const journal = await h.events(sessionId);
    expect([...seen, ...resumed]).toEqual(journal);
    expect(new Set(journal.map((e) => e.seq)).size).toBe(journal.length);
    expect(journal.map((e) => e.seq)).toEqual(journal.map((_, i) => i + 1));
  });

  it('answers a subscription to an unknown session with an error and keeps the socket open', async () => {
    h = await startHarness();
    const ws = await open();
    ws.send({ type: 'subscribe', session_id: 'ses_does_not_exist', after_seq: 0 });
    const error = await ws.next((m) => m.type === 'error');
    // Naming the session, so a client knows which of its subscriptions failed.
    expect(error).toMatchObject({
      type: 'error',
      session_id: 'ses_does_not_exist',
      error: { code: 'not_found' },
    });
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);

    // Unreadable messages after authenticating are errors too, not a reason to drop the client.
    ws.socket.send('not json');
    await ws.next((m) => m.type === 'error' && m.error.code === 'bad_request');
    ws.send({ type: 'subscribe', session_id: 'x', after_seq: -1 });
    await ws.next(
      () => ws.messages.filter((m) => m.type === 'error' && m.error.code === 'bad_request').length === 2,
    );
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);

    const { sessionId } = await h.newSession();
    await subscribe(ws, sessionId, 0);
    expect(ws.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('stops relaying a session after unsubscribe', async () => {
    h = await startHarness();
    const a = await h.newSession();
    const b = (await h.api<{ id: string }>('POST', '/api/sessions', { project_id: a.projectId })).body.id;
    const ws = await open();
    await subscribe(ws, a.sessionId, 0);
    await subscribe(ws, b, 0);
    ws.send({ type: 'unsubscribe', session_id: a.sessionId });
    await barrier(ws);

    h.model.enqueue({ content: [{ type: 'text', text: 'In session A.' }] });
    await h.waitForTurnEnd((await h.startTurn(a.sessionId, 'a')).id);
    h.model.enqueue({ content: [{ type: 'text', text: 'In session B.' }] });
    await h.startTurn(b, 'b');
    // Events go out in order on one socket: once B's turn has arrived, anything of A's would have too.
    await ws.next(eventWith(b, (e) => e.type === 'turn.completed'));
    expect(eventsOf(ws, a.sessionId)).toEqual([]);
    expect(eventsOf(ws, b)).toEqual(await h.events(b));
  });
});
