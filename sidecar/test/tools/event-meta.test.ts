import { describe, expect, it } from 'vitest';
import { metaForEvent } from '../../src/tools/runtime/tool-call-runner';

describe('the meta a tool.finished event carries', () => {
  it('is the call’s own when small, and none when a tool made it large', () => {
    expect(metaForEvent(null)).toBeNull();
    expect(metaForEvent({ outputs: ['image/png'] })).toEqual({ outputs: ['image/png'] });
    expect(metaForEvent({ junk: 'x'.repeat(5_000) })).toBeNull();
  });
});
