// `cairn run --server`'s driver, in process, behind a real reverse proxy to a real sidecar: a socket cut
// mid-turn resumes and the turn's events arrive once each, in order; a proxy that refuses WebSockets ends
// the run with what to fix instead of leaving it waiting, and so does a session deleted while the socket
// was down.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteTurnDriver } from '../../src/cli/remote-turn-driver';
import { CairnClient } from '../../src/client';
import type { CairnEvent } from '../../src/protocol';
import { type Harness, startHarness } from '../support/harness';
import { heldReply } from '../support/held-reply';
import { type ReverseProxy, reverseProxy } from '../support/reverse-proxy';

let h: Harness;
const proxies: ReverseProxy[] = [];
const drivers: RemoteTurnDriver[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  for (const driver of drivers.splice(0)) await driver.close();
  for (const proxy of proxies.splice(0)) await proxy.close();
});
afterAll(() => h?.close());

async function driverThrough(upgrades: 'refuse' | 'tunnel') {
  const proxy = await reverseProxy(h.server.url, upgrades);
  proxies.push(proxy);
  const driver = new RemoteTurnDriver({
    serverUrl: proxy.url,
    token: h.server.token,
    workspace: h.projectDir,
    prompt: 'count',
    sessionId: null,
    mode: null,
    notice: () => undefined,
  });
  drivers.push(driver);
  return { proxy, driver };
}

describe('RemoteTurnDriver', () => {
  it('resumes after the socket is cut mid-turn: every event once, in order, and the turn completes', async () => {
    const release = heldReply(h.model, 'w');
    const { proxy, driver } = await driverThrough('tunnel');
    const seen: CairnEvent[] = [];
    const { sessionId, turnId } = await driver.start((event) => seen.push(event));
    await proxy.serverSent('"subscribed"');
    proxy.cutTunnels();
    release();

    expect(await driver.finished()).toBe('completed');
    const journal = (await h.events(sessionId)).filter((e) => e.turn_id === turnId);
    expect(seen).toEqual(journal);
    expect(seen.filter((e) => e.type === 'message.delta').length).toBeGreaterThan(1);
  });

  it('ends the run, saying why, when a proxy refuses the WebSocket', async () => {
    h.model.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const { driver } = await driverThrough('refuse');
    await driver.start(() => undefined);
    await expect(driver.finished()).rejects.toThrow(
      /^Cannot open the event WebSocket at ws:\/\/127\.0\.0\.1:\d+\/api\/ws: .*pass WebSocket upgrades/,
    );
  });

  it('ends the run with not_found when the session is deleted while the socket is down', async () => {
    // A reply that stays open: the turn waits mid-answer until it is cancelled.
    h.model.enqueue({ content: [{ type: 'text', text: 'Thinking…' }], hang: true });
    const asked = h.model.waitForRequests(h.model.requests.length + 1);
    const { proxy, driver } = await driverThrough('tunnel');
    const { sessionId, turnId } = await driver.start(() => undefined);
    await proxy.serverSent('"subscribed"');
    await asked;
    // The socket drops and its reconnect waits until the session is gone (elsewhere, through the API): a
    // live socket would have heard the turn's cancellation instead.
    let deleted!: () => void;
    proxy.holdUpgrades(new Promise<void>((resolve) => (deleted = resolve)));
    proxy.cutTunnels();
    await new CairnClient({ url: h.server.url, token: h.server.token }).deleteSession(sessionId);
    deleted();
    await expect(driver.finished()).rejects.toThrow(
      `Session ${sessionId} no longer exists on ${proxy.url} (it was deleted, or the server came back without ` +
        `it) while this run followed turn ${turnId}: the turn will not finish.`,
    );
  });
});
