import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelList, SessionDetail } from '../../src/protocol';
import { forkCall, forkScript, spawn, text } from '../support/fork-script';
import { type Harness, startHarness } from '../support/harness';

/**
 * A fork runs one turn: once it has ended (or the parent's turn ended it), nothing it started runs on: not
 * its kernels, nor a call it left running in the background.
 */
describe('what a fork leaves running', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CAIRN_KERNEL_IPYTHON: '0', CAIRN_KERNEL_WARM: '0' } });
  });
  afterAll(async () => h?.close());

  const forkOf = async (sessionId: string) =>
    (await h.api<SessionDetail>('GET', `/api/sessions/${sessionId}`)).body.forks[0]!;

  it("a completed fork's kernel is shut down with it", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    s.parent({ content: [spawn('kernel')] }, forkCall('gather_all'), text('done'));
    s.fork(
      'kernel',
      { content: [{ type: 'tool_use', name: 'execute_code', input: { code: 'x = 1' } }] },
      text('ok'),
    );
    const turn = await h.startTurn(sessionId, 'go');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const fork = await forkOf(sessionId);
    expect(fork.status).toBe('completed');
    const kernels = await h.api<KernelList>('GET', `/api/sessions/${fork.fork_id}/kernels`);
    expect(kernels.body.kernels).toEqual([]);
  });

  it("a fork's background call stops when the parent's turn ends the fork", async () => {
    const s = forkScript(h.model);
    const { sessionId } = await h.newSession();
    const marker = path.join(h.projectDir, 'late-marker.txt');
    s.parent(
      { content: [spawn('background')] },
      {
        kind: 'handler',
        handle: async () => {
          // The fork has started its background call and waits for a reply that never comes.
          await s.waitForRequests('background', 2);
          return text('not waiting for it');
        },
      },
    );
    s.fork('background', {
      content: [
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'sleep 1; echo late > late-marker.txt', is_wait: false },
        },
      ],
    });
    const turn = await h.startTurn(sessionId, 'go');
    expect((await h.waitForTurnEnd(turn.id)).status).toBe('completed');
    const fork = await forkOf(sessionId);
    expect(fork.status).toBe('cancelled');
    const running = h.server.core.store.toolCalls.unfinished().filter((c) => c.session_id === fork.fork_id);
    expect(running).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fs.existsSync(marker)).toBe(false);
  });
});
