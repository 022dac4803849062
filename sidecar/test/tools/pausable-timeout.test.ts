// The runner's own timeout stops while the call waits for the user (an MCP form) and runs on from there.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PausableTimeout } from '../../src/tools/runtime/pausable-timeout';

describe('PausableTimeout', () => {
  afterEach(() => vi.useRealTimers());

  it('fires after its time less the paused spans, once; not after clear', () => {
    vi.useFakeTimers();
    let fired = 0;
    const timeout = new PausableTimeout(1_000, () => fired++);
    vi.advanceTimersByTime(600);
    timeout.pause();
    timeout.pause(); // nested: a second wait
    vi.advanceTimersByTime(60_000);
    timeout.resume();
    vi.advanceTimersByTime(60_000);
    expect(fired).toBe(0);
    timeout.resume();
    vi.advanceTimersByTime(399);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    timeout.pause();
    timeout.resume();
    vi.advanceTimersByTime(10_000);
    expect(fired).toBe(1);

    const cleared = new PausableTimeout(1_000, () => fired++);
    cleared.pause();
    cleared.clear();
    cleared.resume();
    vi.advanceTimersByTime(10_000);
    expect(fired).toBe(1);
  });
});
