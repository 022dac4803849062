import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallDeadline, PROGRESS_TIMEOUT_FACTOR } from '../../src/mcp/call-deadline';
import { MCP_LIMITS } from '../../src/protocol';

describe('CallDeadline: a progress notification as it is handed on', () => {
  it('redacts a credential in its message, bounds it, and drops numbers that are not finite', () => {
    const expired: string[] = [];
    const deadline = new CallDeadline(null, 'the tool "t"', (why) => expired.push(why));
    const token = 'abcdef0123456789abcdef';
    expect(
      deadline.progress({ progress: 1, total: 4, message: `calling with Authorization: Bearer ${token}` }),
    ).toEqual({ progress: 1, total: 4, message: 'calling with Authorization: Bearer [REDACTED]' });
    const long = deadline.progress({
      progress: 2,
      message: 'x'.repeat(MCP_LIMITS.progressMessageChars + 50),
    });
    expect(long?.message?.length).toBe(MCP_LIMITS.progressMessageChars);
    expect(deadline.progress({ progress: Number.NaN })).toBeNull();
    expect(deadline.progress({ progress: 3, total: Number.POSITIVE_INFINITY })).toEqual({
      progress: 3,
      total: null,
      message: null,
    });
    deadline.clear();
    expect(expired).toEqual([]);
  });
});

describe('CallDeadline: paused while the user fills a form', () => {
  afterEach(() => vi.useRealTimers());
  const start = () => {
    vi.useFakeTimers();
    const expired: string[] = [];
    return { expired, deadline: new CallDeadline(1_000, 'the tool "t"', (why) => expired.push(why)) };
  };

  it('does not expire while paused; resumed, it has its whole timeout again', () => {
    const { expired, deadline } = start();
    vi.advanceTimersByTime(900);
    deadline.pause();
    vi.advanceTimersByTime(50_000);
    expect(expired).toEqual([]);
    deadline.resume();
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['the tool "t" did not answer within 1 s; the call was cancelled']);
  });

  it('stays paused until the last of nested pauses ends', () => {
    const { expired, deadline } = start();
    deadline.pause();
    deadline.pause();
    deadline.resume();
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual([]);
    deadline.resume();
    vi.advanceTimersByTime(1_000);
    expect(expired).toHaveLength(1);
  });

  it('leaves the time the user spent answering out of the total limit', () => {
    const { expired, deadline } = start();
    const total = 1_000 * PROGRESS_TIMEOUT_FACTOR;
    // Progress every 900 ms up to just short of the total limit, with a long answered form in between.
    for (let t = 0; t < total - 900; t += 900) {
      vi.advanceTimersByTime(900);
      deadline.progress({ progress: t });
      if (t === 0) {
        deadline.pause();
        vi.advanceTimersByTime(60_000);
        deadline.resume();
      }
    }
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(expired).toHaveLength(1);
  });

  it('counts a form left unanswered (timed out) toward the total limit', () => {
    const { expired, deadline } = start();
    // A server re-asking after every timeout: the call ends at its total limit all the same.
    for (let i = 0; i < PROGRESS_TIMEOUT_FACTOR; i++) {
      deadline.pause();
      vi.advanceTimersByTime(1_000);
      deadline.resume(true);
    }
    vi.advanceTimersByTime(0);
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatch(/did not finish within 10 s \(forms it asked for and left unanswered count/);
  });
});
