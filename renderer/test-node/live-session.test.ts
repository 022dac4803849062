import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CairnClient, EventStream } from '../../sidecar/src/client';
import type { CairnEvent } from '../../sidecar/src/protocol';
import { type Harness, startHarness } from '../../sidecar/test/support/harness';
import { seedTurns } from '../../sidecar/test/support/seed-turns';
import { SessionController } from '../src/state/session-controller';

// The renderer's client, event stream and session state against a real sidecar (Node's fetch, and
// the `ws` package standing in for the browser's WebSocket).
const BrowserLikeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((r) => setTimeout(r, 10));
}

describe('the renderer state against a real sidecar', () => {
  let h: Harness;
  let stream: EventStream | null = null;
  afterEach(async () => {
    stream?.close();
    await h?.close();
  });

  it('delivers every event exactly once across a dropped socket', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    const backend = { url: h.server.url, token: h.server.token };
    stream = new EventStream(backend, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
    const seen: CairnEvent[] = [];
    const states: string[] = [];
    stream.onState((state) => states.push(state));
    stream.subscribe(sessionId, 0, (e) => seen.push(e));
    await until(() => stream!.getState() === 'open');
    // Many blocks make many deltas, so the drop lands in the middle of the stream.
    const blocks = Array.from({ length: 40 }, (_, i) => ({ type: 'text' as const, text: `w${i + 1} ` }));
    h.model.enqueue({ content: blocks, delayMs: 2 });
    const turn = await h.startTurn(sessionId, 'count');
    await until(() => seen.length > 10);
    stream.reconnectNow();
    await h.waitForTurnEnd(turn.id);
    await until(() => seen.at(-1)?.type === 'turn.completed');
    const journal = await h.events(sessionId);
    expect(seen.map((e) => e.seq)).toEqual(journal.map((e) => e.seq));
    expect(seen).toEqual(journal);
    // The socket really went down and came back in the middle.
    expect(states.filter((s) => s === 'open').length).toBeGreaterThanOrEqual(2);
    expect(states).toContain('down');
  });

  it('a controller opened mid-turn rebuilds the running turn and follows it to the end', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    const client = new CairnClient({ url: h.server.url, token: h.server.token });
    stream = new EventStream(client.backend, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
    h.model.enqueue(
      {
        content: [
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool_use',
            name: 'AskUserQuestion',
            input: { question: 'Proceed?', options: ['yes', 'no'] },
          },
        ],
      },
      { content: [{ type: 'text', text: 'Proceeding as you said.' }] },
    );
    const turn = await h.startTurn(sessionId, 'start');
    const asked = await h.waitForEvent(sessionId, (e) => e.type === 'question.required');

    // Opened after the question was asked, as after a reload.
    const controller = new SessionController(client, stream, sessionId);
    await controller.start();
    const running = controller.getSnapshot().running;
    expect(running?.turn.id).toBe(turn.id);
    const kinds = running!.items.map((i) => i.kind);
    expect(kinds).toEqual(['prompt', 'text', 'tool', 'question']);
    const question = running!.items.find((i) => i.kind === 'question');
    expect(question?.kind === 'question' && question.question.id).toBe(
      asked.type === 'question.required' ? asked.question.id : null,
    );

    await controller.answer(asked.type === 'question.required' ? asked.question.id : '', { answer: 'yes' });
    await until(() => controller.getSnapshot().turns.at(-1)?.turn.status === 'completed');
    const done = controller.getSnapshot().turns.at(-1)!;
    const texts = done.items.filter((i) => i.kind === 'text').map((i) => (i.kind === 'text' ? i.text : ''));
    expect(texts).toEqual(['Let me check.', 'Proceeding as you said.']);
    const card = done.items.find((i) => i.kind === 'tool');
    expect(card?.kind === 'tool' && card.card.status).toBe('completed');
    expect(controller.getSnapshot().running).toBeNull();

    // A new controller (a reload after the end) shows the same turn from history.
    const reloaded = new SessionController(client, stream, sessionId);
    await reloaded.start();
    const fromHistory = reloaded.getSnapshot().turns.at(-1)!;
    // The same items in the same order, the answered question included, as it was shown live.
    expect(fromHistory.items.map((i) => i.kind)).toEqual(done.items.map((i) => i.kind));
    const reloadedQuestion = fromHistory.items.find((i) => i.kind === 'question');
    expect(reloadedQuestion?.kind === 'question' && reloadedQuestion.question).toMatchObject({
      status: 'answered',
      answer: 'yes',
    });
    controller.dispose();
    reloaded.dispose();
  });

  it('pages back to the first of 65 turns', async () => {
    h = await startHarness();
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 65);
    const client = new CairnClient({ url: h.server.url, token: h.server.token });
    stream = new EventStream(client.backend, { WebSocketImpl: BrowserLikeWebSocket });
    const controller = new SessionController(client, stream, sessionId);
    await controller.start();
    expect(controller.getSnapshot().turns).toHaveLength(30);
    await controller.loadEarlier();
    await controller.loadEarlier();
    const snapshot = controller.getSnapshot();
    expect(snapshot.turns.map((t) => t.turn.ordinal)).toEqual(Array.from({ length: 65 }, (_, i) => i + 1));
    expect(snapshot.nextBefore).toBeNull();
    controller.dispose();
  });

  it('reports a rejected token once instead of reconnecting forever', async () => {
    h = await startHarness();
    stream = new EventStream(
      { url: h.server.url, token: 'not-the-token-0123456789-abcdefghijkl' },
      { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 },
    );
    const states: string[] = [];
    stream.onState((s) => states.push(s));
    await until(() => stream!.getState() === 'rejected');
    await new Promise((r) => setTimeout(r, 100));
    expect(states).toEqual(['connecting', 'rejected']);
  });
});
