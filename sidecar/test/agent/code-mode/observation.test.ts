import { describe, expect, it } from 'vitest';
import { formatObservation, type ObservationInput } from '../../../src/agent/code-mode/observation';

const base: ObservationInput = { stdout: '', stderr: '', value: null, error: null, images: 0 };

describe('formatObservation', () => {
  it('gives short output whole, stderr marked, then the last value', () => {
    expect(formatObservation({ ...base, stdout: 'hello\n', stderr: 'careful\n', value: '42' })).toBe(
      'hello\n[stderr]\ncareful\nLast value: 42',
    );
  });

  it('cuts long output in the middle, keeping head and tail and saying how much went', () => {
    const stdout = `HEAD${'x'.repeat(1_000)}TAIL`;
    const text = formatObservation({ ...base, stdout }, 100);
    expect(text.startsWith('HEAD')).toBe(true);
    expect(text.endsWith('TAIL')).toBe(true);
    expect(text).toContain(`[... ${stdout.length - 100} characters omitted ...]`);
    expect(text.length).toBeLessThan(200);
  });

  it('keeps what was printed before an error, then the structured error', () => {
    const text = formatObservation({
      ...base,
      stdout: 'step 1\n',
      error: {
        type: 'ZeroDivisionError',
        message: 'division by zero',
        line: 2,
        snippet: 'y = 1 / 0',
        pointer: '    ^^^^^',
        traceback: ['Cell In[1], line 2', 'frame a\nframe b'],
      },
    });
    expect(text).toBe(
      'step 1\nError: ZeroDivisionError: division by zero\nAt line 2:\ny = 1 / 0\n    ^^^^^\n' +
        'Traceback (last lines):\nCell In[1], line 2\nframe a\nframe b',
    );
  });

  it('keeps only the last traceback lines', () => {
    const traceback = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const text = formatObservation({ ...base, error: { type: 'E', message: 'm', traceback } });
    expect(text).toContain('line 29');
    expect(text).toContain('line 18');
    expect(text).not.toContain('line 17');
  });

  it('gives a value alone', () => {
    expect(formatObservation({ ...base, value: "'abc'" })).toBe("Last value: 'abc'");
  });

  it('says when nothing was printed', () => {
    expect(formatObservation(base)).toBe('(no output)');
  });

  it('mentions images shown to the user', () => {
    expect(formatObservation({ ...base, images: 1 })).toBe('(no output)\n[1 image shown to the user]');
    expect(formatObservation({ ...base, stdout: 'plotted', images: 2 })).toBe(
      'plotted\n[2 images shown to the user]',
    );
  });
});
