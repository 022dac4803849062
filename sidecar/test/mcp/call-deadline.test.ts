import { describe, expect, it } from 'vitest';
import { CallDeadline } from '../../src/mcp/call-deadline';
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
