import { describe, expect, it } from 'vitest';
import { fenceLanguages, grammarFor, loadGrammar } from '../../src/components/highlight/highlighter';

describe('on-demand highlighting', () => {
  it('resolves a fence name or alias to the grammar that colours it, case-insensitively', () => {
    expect(grammarFor('ts')).toBe('typescript');
    expect(grammarFor('TypeScript')).toBe('typescript');
    expect(grammarFor('sh')).toBe('bash');
    expect(grammarFor('html')).toBe('xml');
    expect(grammarFor('py')).toBe('python');
    expect(grammarFor('brainfuck')).toBeNull();
    expect(grammarFor(null)).toBeNull();
  });

  it('finds the languages of fenced blocks without parsing the Markdown', () => {
    const text = [
      'Some `inline` code and ```not a fence``` in a line.',
      '```ts',
      'const a = 1;',
      '```',
      '   ~~~python',
      'print(1)',
      '~~~',
      '```',
      'plain',
      '```',
      '````rust {.numbered}',
      'fn main() {}',
      '````',
    ].join('\n');
    expect(fenceLanguages(text)).toEqual(['ts', 'python', 'rust']);
    expect(fenceLanguages('no code here')).toEqual([]);
  });

  it('settles a grammar it cannot load, so nothing waits on it for ever', async () => {
    await expect(loadGrammar('no-such-grammar')).resolves.toBeUndefined();
  });
});
