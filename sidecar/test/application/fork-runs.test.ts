// ForkRuns' waiting: gather_all's timeout is the model's number of seconds, any size.
import { describe, expect, it } from 'vitest';
import { ForkRuns } from '../../src/application/forks/fork-runs';
import { silentLogger } from '../../src/log/logger';

/** A runtime whose fork turns run until cancelled. */
function runsWithEndlessForks() {
  const ends = new Map<string, () => void>();
  const runtime = {
    startTurn: (sessionId: string) => {
      const id = `turn_${sessionId}`;
      return { turn: { id } } as never;
    },
    waitForTurn: (turnId: string) => new Promise<null>((resolve) => ends.set(turnId, () => resolve(null))),
    cancelTurn: async (turnId: string) => {
      ends.get(turnId)?.();
      return null as never;
    },
  };
  return new ForkRuns({
    runtime,
    limit: 4,
    changed: () => undefined,
    release: async () => undefined,
    logger: silentLogger,
  });
}

describe('ForkRuns.waitFor', () => {
  it('a timeout longer than a timer can hold waits (it does not fire at once)', async () => {
    const runs = runsWithEndlessForks();
    runs.add({ id: 'ses_f1', parentTurnId: 'turn_p', prompt: 'task' });
    const controller = new AbortController();
    // 30 days, as gather_all {"timeout_s": 2592000}: past setTimeout's 2^31-1 ms.
    let settled = false;
    const waiting = runs.waitFor(['ses_f1'], 30 * 24 * 3600 * 1000, controller.signal).then(
      () => {
        settled = true;
      },
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect(runs.isActive('ses_f1')).toBe(true);
    await runs.endOfTurn('turn_p');
    await waiting;
    expect(settled).toBe(true);
  });
});
