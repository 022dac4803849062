import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CairnClient, EventStream } from '../../sidecar/src/client';
import { type Harness, startHarness } from '../../sidecar/test/support/harness';
import { writeFromScript } from '../e2e/support/script-call';
import { BackgroundController } from '../src/state/background-controller';
import { SessionController } from '../src/state/session-controller';
import type { ToolItem } from '../src/state/tool-items';
import type { TurnView } from '../src/state/turn-view';
import { WaitingController } from '../src/state/waiting-controller';
import { callsAwaitingApproval, waitingOutside } from '../src/state/waiting-view';

// Background calls in the renderer's state and typed client, against a real sidecar: the agent starts a
// background Bash whose script calls Write through Cairn's runtime; the card runs on after its turn with the
// script's call nested under it, the client lists, reads and cancels it, and a reload shows it as it is now.
const BrowserLikeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const tools = (view: TurnView | undefined) =>
  (view?.items ?? []).filter((i): i is ToolItem => i.kind === 'tool');

describe('background calls in the renderer, against a real sidecar', () => {
  let h: Harness;
  let stream: EventStream;
  let client: CairnClient;
  beforeAll(async () => {
    h = await startHarness();
    client = new CairnClient({ url: h.server.url, token: h.server.token });
    stream = new EventStream(client.backend, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
  });
  afterAll(async () => {
    stream?.close();
    await h?.close();
  });

  it('runs on after its turn, nests its script call, is listed, read and cancelled, and reloads as it is', async () => {
    const { sessionId } = await h.newSession();
    const live = new SessionController(client, stream, sessionId);
    await live.start();
    const command = `echo started; ${writeFromScript('from-script.txt')}; sleep 300`;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command, is_wait: false } }] },
      { content: [{ type: 'text', text: 'It runs in the background.' }] },
    );
    await live.send('build it in the background');
    const turn = () => live.getSnapshot().turns.at(-1);
    await until(() => turn()?.turn.status === 'completed', 'the turn to end');
    const bash = () => tools(turn())[0]!;
    await until(() => bash().nested[0]?.kind === 'tool', 'the script call');
    await until(() => bash().card.output.includes('wrote: true'), 'the script to be answered');
    expect(bash().card).toMatchObject({ name: 'Bash', status: 'running', background: true });
    expect(bash().nested).toMatchObject([
      {
        kind: 'tool',
        card: { name: 'Write', status: 'completed', parentToolCallId: bash().card.toolCallId },
      },
    ]);
    expect(fs.readFileSync(path.join(h.projectDir, 'from-script.txt'), 'utf8')).toBe('hi');
    const callId = bash().card.toolCallId!;

    // The typed client: the runtime lists it running, its output reads from the pieces.
    const runtime = await client.toolRuntime(sessionId);
    expect(runtime.calls.map((c) => [c.id, c.status, c.background])).toEqual([[callId, 'running', true]]);
    expect(runtime.loaded_tools).toEqual([]);
    // Pieces are written a moment after the output streams.
    let output = await client.toolCallOutput(callId);
    for (
      let i = 0;
      i < 50 &&
      !output.pieces
        .map((p) => p.text)
        .join('')
        .includes('wrote: true');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      output = await client.toolCallOutput(callId);
    }
    expect(output).toMatchObject({ call_id: callId, status: 'running', running: true, missing: 0 });
    expect(output.pieces.map((p) => p.text).join('')).toMatch(/^started\nwrote: true\n/);
    const after = await client.toolCallOutput(callId, output.next_after!);
    expect(after.pieces).toEqual([]);

    // A reload of the turn page shows it running, with the script's call under it. (A stream serves one
    // view of a session, as one window does: the reload gets a stream of its own.)
    const second = new EventStream(client.backend, {
      WebSocketImpl: BrowserLikeWebSocket,
      initialDelayMs: 5,
    });
    const reloaded = new SessionController(client, second, sessionId);
    await reloaded.start();
    const again = () => tools(reloaded.getSnapshot().turns.at(-1))[0]!;
    expect(again().card).toMatchObject({ toolCallId: callId, status: 'running', background: true });
    expect(again().nested).toMatchObject([{ card: { name: 'Write', status: 'completed' } }]);
    // The side panel's view of it, read as a reloaded window reads it: its whole output so far.
    const panel = new BackgroundController(client, reloaded, sessionId);
    await panel.start();
    expect(panel.getSnapshot().view?.calls.map((c) => [c.call.id, c.call.status, c.tail])).toEqual([
      [callId, 'running', 'started\nwrote: true\n'],
    ]);

    // Cancelled through the client: both views hear it end, in the turn that started it; so does a reload.
    const cancelled = await client.cancelToolCall(callId);
    expect(cancelled).toMatchObject({ id: callId, status: 'cancelled' });
    await until(() => bash().card.status === 'cancelled', 'the live card to end');
    await until(() => again().card.status === 'cancelled', 'the reloaded card to end');
    expect(panel.getSnapshot().view?.calls[0]?.call.status).toBe('cancelled');
    panel.dispose();
    reloaded.dispose();
    const third = new SessionController(client, second, sessionId);
    await third.start();
    expect(tools(third.getSnapshot().turns.at(-1))[0]!.card).toMatchObject({
      status: 'cancelled',
      background: true,
    });
    second.close();
    expect((await client.toolRuntime(sessionId)).calls[0]).toMatchObject({ id: callId, status: 'cancelled' });
    await expect(client.cancelToolCall('tc_nope')).rejects.toMatchObject({ status: 404 });
    live.dispose();
    third.dispose();
  });

  it("asks for a background script's call after its turn ended, next to that call and in the side panel, and runs it once allowed there", async () => {
    const { sessionId } = await h.newSession({ approval: 'ask' });
    const live = new SessionController(client, stream, sessionId);
    await live.start();
    // The side panel's list of what waits outside the running turn, as the conversation starts it.
    const runningTurn = () => live.getSnapshot().running?.turn.id ?? null;
    const waiting = new WaitingController(client, live, sessionId, runningTurn);
    await waiting.start();
    const outside = (controller: WaitingController) => waitingOutside(controller.getSnapshot().view);
    const gate = path.join(h.projectDir, 'go');
    const command = `while [ ! -e '${gate}' ]; do sleep 0.05; done; ${writeFromScript('asked.txt')}`;
    h.model.enqueue(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command, is_wait: false } }] },
      { content: [{ type: 'text', text: 'Waiting for the gate.' }] },
    );
    await live.send('write when the gate opens');
    const turn = () => live.getSnapshot().turns.at(-1);
    const bash = () => tools(turn())[0];
    // Bash itself asks first (the turn waits on it).
    await until(() => turn()?.items.some((i) => i.kind === 'question') ?? false, 'the Bash approval');
    const first = turn()!.items.find((i) => i.kind === 'question')!;
    // The running turn's own approval stays inline only.
    expect(waiting.getSnapshot().view?.pending.map((q) => q.id)).toEqual([
      first.kind === 'question' ? first.question.id : '',
    ]);
    expect(outside(waiting)).toEqual([]);
    await client.answer(first.kind === 'question' ? first.question.id : '', { answer: 'allow' });
    await until(() => turn()?.turn.status === 'completed', 'the turn to end');
    expect(bash()!.card).toMatchObject({ status: 'running', background: true });

    fs.writeFileSync(gate, '');
    await until(() => bash()!.nested.some((n) => n.kind === 'question'), 'the script call approval');
    const [write, asked] = bash()!.nested;
    expect(write).toMatchObject({ kind: 'tool', card: { name: 'Write', status: 'waiting_approval' } });
    expect(asked?.kind === 'question' && asked.question.question).toContain(
      `(from a script of call ${bash()!.card.toolCallId})`,
    );
    const questionId = asked!.kind === 'question' ? asked!.question.id : '';
    const bashId = bash()!.card.toolCallId!;
    // The panel lists it (its turn ended), and knows which background call's script asks.
    await until(() => outside(waiting).length === 1, 'the approval in the side panel');
    expect(outside(waiting)[0]).toMatchObject({ id: questionId, kind: 'approval', status: 'pending' });
    expect(outside(waiting)[0]!.tool_call_id).toBe(write?.kind === 'tool' ? write.card.toolCallId : '');
    expect([...callsAwaitingApproval(waiting.getSnapshot().view)]).toEqual([bashId]);
    // So does a panel started now (a reloaded window): read from the server, its parent read from the call.
    const reloaded = new WaitingController(client, live, sessionId, runningTurn);
    await reloaded.start();
    expect(outside(reloaded).map((q) => q.id)).toEqual([questionId]);
    expect([...callsAwaitingApproval(reloaded.getSnapshot().view)]).toEqual([bashId]);

    await waiting.answer(questionId, { answer: 'allow' });
    await until(() => bash()!.card.status === 'completed', 'the background call to end');
    expect(outside(waiting)).toEqual([]);
    expect(outside(reloaded)).toEqual([]);
    expect(await client.questions(sessionId)).toEqual([]);
    reloaded.dispose();
    waiting.dispose();
    expect(bash()!.nested).toMatchObject([
      { card: { name: 'Write', status: 'completed' } },
      { question: { status: 'answered', answer: 'allow' } },
    ]);
    expect(fs.readFileSync(path.join(h.projectDir, 'asked.txt'), 'utf8')).toBe('hi');
    live.dispose();
  });
});
