import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CairnClient, EventStream } from '../../sidecar/src/client';
import {
  done,
  readRound,
  script,
  summaryOf,
  summaryReply,
  useWindow,
} from '../../sidecar/test/support/context-script';
import { type Harness, startHarness } from '../../sidecar/test/support/harness';
import { seedTurns } from '../../sidecar/test/support/seed-turns';
import type { CompactionItem } from '../src/state/compaction-item';
import { SessionController } from '../src/state/session-controller';
import type { TurnView } from '../src/state/turn-view';

// Compactions in the renderer's conversation state against a real sidecar: shown live where they happen
// (in a turn, or between turns for "compact now"), and in the same place after a reload.
const BrowserLikeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((r) => setTimeout(r, 10));
}

/** A turn's items as a sequence: kinds, with each compaction as its version and level. */
const shape = (view: TurnView) =>
  view.items.map((i) => (i.kind === 'compaction' ? `v${i.version}:${i.level}:${i.state}` : i.kind));
const compactions = (view: TurnView) =>
  view.items.filter((i): i is CompactionItem => i.kind === 'compaction');

describe('compactions in the conversation, against a real sidecar', () => {
  let h: Harness;
  let stream: EventStream;
  let client: CairnClient;
  beforeAll(async () => {
    h = await startHarness();
    await useWindow(h, { context_window: 16_000, max_tokens: 1000, compact_threshold: 0.7 });
    fs.writeFileSync(
      path.join(h.projectDir, 'big.txt'),
      'a line of the big file, long enough to matter\n'.repeat(180),
    );
    client = new CairnClient({ url: h.server.url, token: h.server.token });
    stream = new EventStream(client.backend, { WebSocketImpl: BrowserLikeWebSocket, initialDelayMs: 5 });
  });
  afterAll(async () => {
    stream?.close();
    await h?.close();
  });

  it('shows threshold and user compactions where they happened, live and after a reload', async () => {
    const { sessionId } = await h.newSession();
    const live = new SessionController(client, stream, sessionId);
    await live.start();
    script(h, [...Array.from({ length: 6 }, () => readRound('big.txt')), done()], () =>
      summaryReply(summaryOf('the reading')),
    );
    await live.send('read big.txt six times');
    await until(() => live.getSnapshot().turns.at(-1)?.turn.status === 'completed');
    const turn = live.getSnapshot().turns.at(-1)!;
    const inTurn = compactions(turn);
    expect(inTurn.length).toBeGreaterThan(0);
    expect(inTurn.every((c) => c.state === 'done' && c.level === 'block' && c.reason === 'threshold')).toBe(
      true,
    );
    expect(inTurn[0]!.tokensAfter!).toBeLessThan(inTurn[0]!.tokensBefore!);
    // Between tool cards, not at the end: the compaction happened before a later request of the turn.
    const first = shape(turn).indexOf(`v${inTurn[0]!.version}:block:done`);
    expect(first).toBeGreaterThan(shape(turn).indexOf('tool'));
    expect(first).toBeLessThan(shape(turn).lastIndexOf('tool'));

    // The user's "compact now" between turns: its card lands after the last turn.
    const compacted = await client.compactNow(sessionId, { level: 'session' });
    await until(() => compactions(live.getSnapshot().turns.at(-1)!).length === inTurn.length + 1);
    const after = live.getSnapshot().turns.at(-1)!;
    expect(compactions(after).at(-1)).toMatchObject({
      state: 'done',
      level: 'session',
      reason: 'user',
      version: compacted.compacted.number,
      parent: compacted.compacted.number - 1,
      summary: expect.objectContaining({ goal: 'goal of the reading' }),
    });
    expect(shape(after).at(-1)).toBe(`v${compacted.compacted.number}:session:done`);

    // A reload reads the same cards, in the same places, from the turn page.
    const reloaded = new SessionController(client, stream, sessionId);
    await reloaded.start();
    expect(shape(reloaded.getSnapshot().turns.at(-1)!)).toEqual(shape(after));
    expect(compactions(reloaded.getSnapshot().turns.at(-1)!).map((c) => c.parent)).toEqual(
      compactions(after).map((c) => c.parent),
    );
    // The version before the user's compaction is readable, and is not HEAD.
    const before = await client.contextVersion(sessionId, compacted.compacted.number - 1, { limit: 5 });
    expect(before.head).toBe(false);
    expect(before.messages.length).toBeGreaterThan(0);
    live.dispose();
    reloaded.dispose();
  });

  it('cancels compact now when the client gives up: the context stays as it was', async () => {
    const { sessionId } = await h.newSession();
    seedTurns(h.server.core.store, sessionId, 4, (i) => ({
      prompt: `prompt ${i}`,
      answer: `answer ${i} `.repeat(300),
    }));
    // The summary call never ends on its own.
    script(h, [], () => ({ content: [{ type: 'text', text: 'thinking about it' }], hang: true }));
    const controller = new AbortController();
    const compacting = client.compactNow(sessionId, { level: 'session' }, controller.signal);
    await h.waitForEvent(sessionId, (e) => e.type === 'context.compaction_started');
    controller.abort();
    await expect(compacting).rejects.toMatchObject({ code: 'cancelled' });
    const failed = await h.waitForEvent(sessionId, (e) => e.type === 'context.compaction_failed');
    expect(failed).toMatchObject({ reason: 'user', error: { code: 'cancelled' } });
    const info = await client.context(sessionId);
    expect(info.version).toBe(1);
    expect(await client.contextVersions(sessionId)).toHaveLength(1);
  });
});
