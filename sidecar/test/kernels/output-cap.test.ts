import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STREAM_CHARS } from '../../src/kernels/cell-run';
import { closeTestSessions, openTestSession, STDLIB } from './kernel-support';

afterEach(closeTestSessions);

describe('output over the cap', () => {
  it('keeps the first and the latest half, and says exactly how much was left out', async () => {
    const t = await openTestSession(STDLIB);
    // Numbered 64-character lines, so the kept text shows where it was cut.
    const lines = Math.ceil((MAX_STREAM_CHARS * 2) / 64);
    const result = await t.session
      .kernel()
      .execute(`for i in range(${lines}):\n    print(str(i).rjust(63, '.'))`);
    expect(result.success).toBe(true);
    const total = lines * 64;
    const note = /\n\[\.\.\. (\d+) characters of output omitted \.\.\.\]\n/.exec(result.stdout);
    expect(note).not.toBeNull();
    const omitted = Number(note![1]);
    const half = Math.floor(MAX_STREAM_CHARS / 2);
    expect(omitted).toBe(total - Math.ceil(MAX_STREAM_CHARS / 2) - half);
    const [head, tail] = result.stdout.split(note![0]);
    expect(head!.length).toBe(Math.ceil(MAX_STREAM_CHARS / 2));
    expect(tail!.length).toBe(half);
    expect(head!.startsWith(`${'0'.padStart(63, '.')}\n`)).toBe(true);
    expect(tail!.endsWith(`${String(lines - 1).padStart(63, '.')}\n`)).toBe(true);
  });
});
