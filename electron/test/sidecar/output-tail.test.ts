import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../src/sidecar/output-tail';

const SECRET = 'Zq3xV9-kL2_mN8pR4tY7wA1bC5dE6fG0hJ3sU8vX2yZ';

describe('OutputTail', () => {
  it('keeps only the last lines within its limit, starting at a whole line', () => {
    const tail = new OutputTail(100);
    for (let n = 1; n <= 50; n += 1) tail.append(`line ${String(n).padStart(2, '0')}\n`);
    const text = tail.read([]);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text.startsWith('line ')).toBe(true);
    expect(text.endsWith('line 50\n')).toBe(true);
    expect(text).not.toContain('line 01');
  });

  it('keeps the end of one line longer than the limit', () => {
    const tail = new OutputTail(10);
    tail.append(`${'a'.repeat(30)}bcdefghij\n`);
    expect(tail.read([])).toBe('bcdefghij\n'.slice(-10));
  });

  it('redacts secrets, whole or cut off at either edge', () => {
    const whole = new OutputTail(1000);
    whole.append(`token=${SECRET} and again ${SECRET}\n`);
    expect(whole.read([SECRET])).toBe('token=[redacted] and again [redacted]\n');

    // The limit cuts inside a single long line that starts with the secret's tail.
    const cutStart = new OutputTail(30);
    cutStart.append(`x${SECRET}${'!'.repeat(10)}`);
    const start = cutStart.read([SECRET]);
    expect(start).toBe(`[redacted]${'!'.repeat(10)}`);

    const cutEnd = new OutputTail(1000);
    cutEnd.append(`printing ${SECRET.slice(0, 20)}`);
    expect(cutEnd.read([SECRET])).toBe('printing [redacted]');
  });
});
